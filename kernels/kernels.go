// Package kernels holds semibench's CUDA C++ kernels (kernels/*.cu) and
// their fallback PTX (kernels/ptx/*.ptx), both embedded in the binary.
//
// At run time the sources are compiled by NVRTC for the exact device (see
// package impls/cuda); where NVRTC is missing, the fallback PTX, built for
// compute_70, is JIT-compiled by the driver. Each PTX file starts with a
// comment stamping the SHA-256 of the source it was built from, so a test
// fails when a .cu is edited without regenerating its PTX (Export, run by
// `semibench kernels export` or `make ptx`).
package kernels

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/semibench/semibench/impls/cuda/nvrtc"
)

//go:embed *.cu
var sourceFS embed.FS

//go:embed ptx/*.ptx
var ptxFS embed.FS

// StampPrefix starts the first line of every fallback PTX file; the SHA-256
// (hex) of the source follows it.
const StampPrefix = "// semibench-source-sha256: "

// FallbackArch is the virtual architecture of the fallback PTX: the oldest
// one the kernels support (Volta, for __shfl_sync and __ballot_sync), which
// every later GPU's driver can JIT-compile.
const FallbackArch = "compute_70"

// Source is one kernel source file.
type Source struct {
	Name string // file name without ".cu", e.g. "kleene"
	Code string
}

// SHA256 returns the hex SHA-256 of the source text.
func (s Source) SHA256() string {
	h := sha256.Sum256([]byte(s.Code))
	return hex.EncodeToString(h[:])
}

// Sources returns every embedded kernel source, sorted by name.
func Sources() []Source {
	ents, _ := fs.ReadDir(sourceFS, ".")
	var out []Source
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".cu") {
			continue
		}
		b, err := sourceFS.ReadFile(e.Name())
		if err != nil {
			continue
		}
		out = append(out, Source{Name: strings.TrimSuffix(e.Name(), ".cu"), Code: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Get returns the named kernel source.
func Get(name string) (Source, error) {
	b, err := sourceFS.ReadFile(name + ".cu")
	if err != nil {
		return Source{}, fmt.Errorf("no kernel source %s.cu: %w", name, err)
	}
	return Source{Name: name, Code: string(b)}, nil
}

// FallbackPTX returns the embedded PTX of the named source, NUL-terminated
// as cuModuleLoadDataEx expects. It refuses PTX whose stamp does not match
// the embedded source.
func FallbackPTX(name string) ([]byte, error) {
	src, err := Get(name)
	if err != nil {
		return nil, err
	}
	b, err := ptxFS.ReadFile(path.Join("ptx", name+".ptx"))
	if err != nil {
		return nil, fmt.Errorf("no fallback PTX for %s.cu (run `make ptx`): %w", name, err)
	}
	stamp, ok := Stamp(b)
	if !ok {
		return nil, fmt.Errorf("kernels/ptx/%s.ptx has no source stamp (run `make ptx`)", name)
	}
	if stamp != src.SHA256() {
		return nil, fmt.Errorf("kernels/ptx/%s.ptx was built from another version of %s.cu (run `make ptx`)", name, name)
	}
	out := make([]byte, len(b)+1)
	copy(out, b)
	return out, nil
}

// PTXFiles returns the names (without ".ptx") of the embedded PTX files.
func PTXFiles() []string {
	ents, _ := fs.ReadDir(ptxFS, "ptx")
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".ptx"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Stamp returns the source hash stamped on the first line of a PTX file.
func Stamp(ptx []byte) (string, bool) {
	line, _, _ := bytes.Cut(ptx, []byte("\n"))
	h, ok := strings.CutPrefix(strings.TrimSpace(string(line)), StampPrefix)
	if !ok || len(h) != 64 {
		return "", false
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", false
	}
	return h, true
}

// Options returns the NVRTC options the kernels are compiled with for a
// target architecture (e.g. "sm_90a" or "compute_70").
func Options(arch string) []string {
	return []string{"--gpu-architecture=" + arch, "-std=c++17", "--device-as-default-execution-space"}
}

// Export regenerates the fallback PTX of every kernel source into dir
// (normally kernels/ptx in the source tree) with NVRTC for FallbackArch,
// stamping each file with its source's SHA-256. It needs libnvrtc (any
// version from 11.2 on); it returns an error matching nvrtc.ErrNotFound
// without one, and the compiler's log on a compilation error.
func Export(dir string) error {
	if err := nvrtc.Load(); err != nil {
		return fmt.Errorf("exporting PTX: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("exporting PTX: %w", err)
	}
	srcs := Sources()
	if len(srcs) == 0 {
		return errors.New("exporting PTX: no kernel sources embedded")
	}
	ver, _ := nvrtc.Version()
	for _, s := range srcs {
		out, err := nvrtc.Compile(s.Code, s.Name+".cu", Options(FallbackArch))
		if err != nil {
			return fmt.Errorf("compiling %s.cu for %s: %w", s.Name, FallbackArch, err)
		}
		ptx := bytes.TrimRight(out.Code, "\x00")
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "%s%s\n", StampPrefix, s.SHA256())
		fmt.Fprintf(&buf, "// Generated from kernels/%s.cu by `semibench kernels export` (NVRTC %s, %s). Do not edit.\n", s.Name, ver, FallbackArch)
		buf.Write(ptx)
		if !bytes.HasSuffix(ptx, []byte("\n")) {
			buf.WriteByte('\n')
		}
		if err := writeFileAtomic(filepath.Join(dir, s.Name+".ptx"), buf.Bytes()); err != nil {
			return fmt.Errorf("exporting PTX: %w", err)
		}
	}
	return nil
}

func writeFileAtomic(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-"+filepath.Base(name)+"-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), name)
}
