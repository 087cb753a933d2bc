package bench

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WriteBenchfmt writes f in the Go benchmark format (the conventions of
// golang.org/x/perf/benchfmt), so benchstat can read result files:
//
//	goos: linux
//	goarch: amd64
//	cpu: Intel Xeon E5645 2.40GHz
//	pkg: semibench
//	machine: xeon-e5645
//	BenchmarkKleene/table2/impl=cpu-paper/n=500/weights=normal/phase=update_w 1 142000000 ns/op
//
// Configuration lines describe the machine (label, CPU, GPUs, CUDA stack,
// semibench version, scale, a paper's source). Each benchmark name is the
// experiment with its first letter upper-cased, then impl=, the parameters
// and phase= as sub-benchmark keys. Names carry no spaces (they become
// '_'); '/' inside the experiment separates sub-benchmarks, while a '/' in
// an implementation, parameter or phase (cpu/paper) becomes '-'.
//
// There is one line per sample (iteration count 1), so benchstat sees the
// distribution; a phase without samples (a paper's table) writes its
// statistic once. Only records whose status is ok are written: skipped,
// unavailable, failed and check-failed cells have no trustworthy time.
//
// benchstat starts a new table whenever the configuration differs, so to
// set two machines side by side drop that grouping:
//
//	benchstat -table "" paper.txt mine.txt
func WriteBenchfmt(w io.Writer, f *File) error {
	bw := bufio.NewWriter(w)
	m := f.Machine
	config := func(key, value string) {
		value = oneLine(value)
		if value != "" {
			fmt.Fprintf(bw, "%s: %s\n", key, value)
		}
	}
	config("goos", goosOf(m.OS))
	config("goarch", m.Arch)
	config("cpu", m.CPU)
	config("pkg", "semibench")
	config("machine", m.Label)
	if m.Cores > 0 {
		config("cores", strconv.Itoa(m.Cores))
	}
	if m.OS != "" && m.OS != goosOf(m.OS) {
		config("os", m.OS)
	}
	var gpus []string
	for _, g := range m.GPUs {
		s := g.Name
		if g.ComputeCapability != "" {
			s += " (cc " + g.ComputeCapability + ")"
		}
		gpus = append(gpus, s)
	}
	config("gpu", strings.Join(gpus, ", "))
	if c := m.CUDA; c != nil {
		config("cuda-driver", c.Driver)
		config("nvrtc", c.NVRTC)
		config("kernel-path", c.KernelPath)
	}
	config("semibench", f.Semibench.Version)
	config("commit", f.Semibench.Commit)
	config("scale", f.Scale)
	config("source", f.Source)

	for i := range f.Records {
		r := &f.Records[i]
		if r.Status != StatusOK {
			continue
		}
		base := benchName(r)
		for _, p := range r.Phases {
			name := base + "/phase=" + benchPart(p.Name)
			samples := p.SamplesMS
			if len(samples) == 0 {
				samples = []float64{p.StatMS}
			}
			for _, ms := range samples {
				if math.IsNaN(ms) || math.IsInf(ms, 0) {
					continue
				}
				fmt.Fprintf(bw, "%s 1 %s ns/op\n", name, formatNS(ms))
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing benchmark format for %s: %w", fileLabel(f, 0), err)
	}
	return nil
}

// benchName is "Benchmark" + the experiment (first letter upper-cased, its
// '/' kept) + impl= and the parameters as sub-benchmark keys.
func benchName(r *Record) string {
	var b strings.Builder
	b.WriteString("Benchmark")
	exp := strings.Trim(noSpace(r.Experiment), "/")
	if c, size := utf8.DecodeRuneInString(exp); c != utf8.RuneError {
		b.WriteRune(unicode.ToUpper(c))
		b.WriteString(exp[size:])
	}
	b.WriteString("/impl=" + benchPart(r.Impl))
	for _, p := range r.Params {
		b.WriteString("/" + benchPart(p.Name) + "=" + benchPart(p.Value))
	}
	return b.String()
}

// benchPart makes s one sub-benchmark component: no white space, no '/'.
func benchPart(s string) string {
	s = noSpace(s)
	s = strings.ReplaceAll(s, "/", "-")
	if s == "" {
		return "-"
	}
	return s
}

// noSpace replaces every run of white space in s with '_'.
func noSpace(s string) string {
	return strings.Join(strings.Fields(s), "_")
}

// oneLine joins the lines of s with spaces and trims it.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// formatNS prints milliseconds as nanoseconds, rounded to a thousandth of
// a nanosecond so float noise (1.6 ms = 1600000.0000000002 ns) disappears.
func formatNS(ms float64) string {
	ns := math.Round(ms*1e6*1e3) / 1e3
	return strconv.FormatFloat(ns, 'f', -1, 64)
}

// goosOf maps a machine's OS description to a GOOS value when it names
// one ("linux", "Linux CentOS 6.3 x86-64" -> "linux"), else returns it.
func goosOf(os string) string {
	first, _, _ := strings.Cut(strings.TrimSpace(os), " ")
	switch l := strings.ToLower(first); l {
	case "linux", "darwin", "windows", "freebsd", "openbsd", "netbsd", "android", "ios", "illumos", "solaris", "aix", "plan9", "dragonfly":
		return l
	}
	return os
}
