package bench

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"github.com/semibench/semibench/internal/sysmem"
)

// Version is semibench's release version, recorded in every result file.
const Version = "0.1.0"

// linkedCommit is the commit `make build` and `make install` stamp with
// -ldflags "-X ...bench.linkedCommit=SHA[+dirty]". It is preferred to the
// go command's own VCS stamp, which it also covers where the go command
// does not stamp (a git worktree, whose .git is a file, or
// GOFLAGS=-buildvcs=false): the Makefile's "+dirty" leaves out what the
// harness writes itself (new result files, reports and plots), which the
// go command counts as changes.
var linkedCommit string

// CurrentBuild returns the version and, when the binary was built from a
// git checkout, the commit (with "+dirty" for uncommitted changes): the one
// the Makefile linked in, else the go command's VCS stamp. A build whose
// commit does not say what code it runs (none, or "+dirty") carries its
// executable's digest in Binary, so that two such builds are told apart.
func CurrentBuild() Build {
	b := Build{Version: Version, Commit: linkedCommit}
	if info, ok := debug.ReadBuildInfo(); ok && linkedCommit == "" {
		dirty := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if dirty && b.Commit != "" && !strings.HasSuffix(b.Commit, "+dirty") {
			b.Commit += "+dirty"
		}
	}
	if b.Commit == "" || strings.HasSuffix(b.Commit, "+dirty") {
		b.Binary = executableDigest()
	}
	return b
}

// executableDigest is the first 16 hex digits of the SHA-256 of this
// process's executable, or "" when it cannot be read.
var executableDigest = sync.OnceValue(func() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
})

// String names the build as messages and notes do: "commit SHA", with the
// executable's digest where the commit does not identify the code, or "a
// binary not stamped with a commit".
func (b Build) String() string {
	s := "commit " + b.Commit
	if b.Commit == "" {
		s = "a binary not stamped with a commit"
	}
	if b.Binary != "" {
		s += " (executable " + b.Binary + ")"
	}
	return s
}

// Same reports whether b and o are one build: the same commit and, where
// the commit does not identify the code, the same executable.
func (b Build) Same(o Build) bool { return b.Commit == o.Commit && b.Binary == o.Binary }

// String names the machine as the messages comparing two do: label, CPU
// model, cores and GPUs.
func (m Machine) String() string {
	gpus := "no GPU"
	if len(m.GPUs) > 0 {
		names := make([]string, len(m.GPUs))
		for i, g := range m.GPUs {
			names[i] = g.Name
		}
		gpus = strings.Join(names, " + ")
	}
	return fmt.Sprintf("%q (%s, %d cores, %s)", m.Label, m.CPU, m.Cores, gpus)
}

// Same reports whether m and o are one machine as a result file counts
// it: label, CPU model, cores and GPUs alike.
func (m Machine) Same(o Machine) bool { return m.String() == o.String() }

// HostMachine describes this computer's CPU side; the caller adds GPUs.
func HostMachine() Machine {
	m := Machine{
		CPU:       cpuModel(),
		Cores:     runtime.NumCPU(),
		OS:        runtime.GOOS,
		Arch:      runtime.GOARCH,
		GoVersion: runtime.Version(),
	}
	m.Hostname, _ = os.Hostname()
	m.MemoryBytes = sysmem.Total()
	m.Label = Slug(m.CPU)
	return m
}

// SetGPUs adds the GPUs and CUDA information and extends the label with the
// first GPU's name, so CPU-only and GPU machines file results apart.
func (m *Machine) SetGPUs(info *CUDAInfo, gpus []GPU) {
	m.CUDA, m.GPUs = info, gpus
	if len(gpus) > 0 {
		m.Label = Slug(m.CPU) + "_" + Slug(gpus[0].Name)
		if len(gpus) > 1 {
			m.Label += "-x" + strconv.Itoa(len(gpus))
		}
	}
}

// AvailableMemory returns the bytes a new allocation may take under the
// host memory limit in force (sysmem.Free: the cgroup's limit less its use,
// a limit set by flag, or MemAvailable), or 0 when unknown.
func AvailableMemory() uint64 { return sysmem.Free() }

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return runtime.GOARCH
}

// Slug condenses a hardware name into a folder-safe label:
// "Intel(R) Xeon(R) CPU E5645 @ 2.40GHz" becomes "intel-xeon-cpu-e5645-2.40ghz".
func Slug(s string) string {
	s = strings.ToLower(s)
	for _, junk := range []string{"(r)", "(tm)", "@", "processor"} {
		s = strings.ReplaceAll(s, junk, " ")
	}
	var b strings.Builder
	dash := false
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.'
		if !ok {
			dash = b.Len() > 0
			continue
		}
		if dash {
			b.WriteByte('-')
			dash = false
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}
