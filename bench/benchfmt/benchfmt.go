// Package benchfmt writes result files in the Go benchmark format, for
// benchstat (semibench export).
package benchfmt

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/semibench/semibench/bench"
)

// BenchstatMinSamples is the number of samples of one benchmark that
// benchstat (golang.org/x/perf/cmd/benchstat, whose statistics are
// golang.org/x/perf/benchmath) needs for a 95% confidence interval of the
// median: with fewer it prints "± ∞" and "need >= 6 samples for
// confidence interval at level 0.95". Its Mann-Whitney U test needs at
// least 4 samples on a side before it can call any difference significant
// at α = 0.05.
const BenchstatMinSamples = 6

// Write writes f in the Go benchmark format (the conventions of
// golang.org/x/perf/benchfmt), so benchstat can read result files and
// compare files from different machines and commits:
//
//	pkg: semibench
//	# semibench result file; machine, build and scale below are comments, ...
//	# machine: amd-epyc
//	# cpu: AMD EPYC
//	# commit: 6b8613eac548c9f6fddefab5da3b1ce3a92e6324
//	BenchmarkKleene/table2/impl=cpu-paper/n=500/weights=normal/phase=total 1 23189643 ns/op
//
// benchstat splits its output into one table per distinct file
// configuration (every "key: value" line, its default -table .config), and
// compares only within a table. So the only configuration line is
// "pkg: semibench"; what differs between machines and commits (machine
// label, goos, goarch, CPU, cores, GPUs, CUDA stack, semibench version and
// commit, scale, a paper's source) is written as "# key: value" comment
// lines, which benchstat reads past. Files from two machines or commits
// then share one table, rows pair on the benchmark name and benchstat
// prints the deltas:
//
//	benchstat amd=amd.txt h100=h100.txt
//
// Each benchmark name is the experiment with its first letter upper-cased,
// then impl=, the parameters and phase= as sub-benchmark keys: nothing
// about the machine, so the same cell has the same name everywhere. Names
// carry no spaces (they become '_'); '/' inside the experiment separates
// sub-benchmarks, while a '/' in an implementation, parameter or phase
// (cpu/paper) becomes '-'.
//
// There is one line per sample (iteration count 1), so benchstat sees the
// distribution; it needs BenchstatMinSamples of them for an interval (see
// Samples). A phase without samples (a paper's table) writes its
// statistic once. Only records whose status is ok are written: skipped,
// unavailable, failed and check-failed cells have no trustworthy time.
func Write(w io.Writer, f *bench.File) error {
	bw := bufio.NewWriter(w)
	m := f.Machine
	fmt.Fprintln(bw, "pkg: semibench")
	fmt.Fprintln(bw, "# semibench result file; machine, build and scale below are comments, not configuration,")
	fmt.Fprintln(bw, "# so benchstat pairs this file with one from another machine or commit: benchstat old=a.txt new=b.txt")
	comment := func(key, value string) {
		value = oneLine(value)
		if value != "" {
			fmt.Fprintf(bw, "# %s: %s\n", key, value)
		}
	}
	comment("machine", m.Label)
	comment("goos", goosOf(m.OS))
	comment("goarch", m.Arch)
	if m.OS != "" && m.OS != goosOf(m.OS) {
		comment("os", m.OS)
	}
	comment("cpu", m.CPU)
	if m.Cores > 0 {
		comment("cores", strconv.Itoa(m.Cores))
	}
	var gpus []string
	for _, g := range m.GPUs {
		s := g.Name
		if g.ComputeCapability != "" {
			s += " (cc " + g.ComputeCapability + ")"
		}
		gpus = append(gpus, s)
	}
	comment("gpu", strings.Join(gpus, ", "))
	if c := m.CUDA; c != nil {
		comment("cuda-driver", c.Driver)
		comment("nvrtc", c.NVRTC)
		comment("kernel-path", c.KernelPath)
	}
	comment("semibench", f.Semibench.Version)
	comment("commit", f.Semibench.Commit)
	comment("scale", f.Scale)
	comment("source", f.Source)

	latest := bench.Latest(f.Records)
	for i := range latest {
		r := &latest[i]
		if r.Status != bench.StatusOK {
			continue
		}
		base := benchName(r)
		for _, p := range r.Phases {
			name := base + "/phase=" + benchPart(p.Name)
			for _, ms := range benchSamples(p) {
				fmt.Fprintf(bw, "%s 1 %s ns/op\n", name, formatNS(ms))
			}
		}
	}
	if err := bw.Flush(); err != nil {
		label := f.Machine.Label
		if label == "" {
			label = "the result file"
		}
		return fmt.Errorf("writing benchmark format for %s: %w", label, err)
	}
	return nil
}

// benchSamples is what Write writes of p, one line each: its
// finite samples, or its statistic when it has no samples (a paper's
// table).
func benchSamples(p bench.Phase) []float64 {
	samples := p.SamplesMS
	if len(samples) == 0 {
		samples = []float64{p.StatMS}
	}
	var finite []float64
	for _, ms := range samples {
		if !math.IsNaN(ms) && !math.IsInf(ms, 0) {
			finite = append(finite, ms)
		}
	}
	return finite
}

// Samples counts what Write writes of f against what
// benchstat needs: records is the number of records written (status ok,
// at least one line), short how many of them have a phase with fewer than
// min lines (samples), and fewest the smallest number of lines of any
// written phase (0 when nothing is written). With min =
// BenchstatMinSamples, short > 0 means benchstat prints "± ∞" for those
// benchmarks: they were measured with fewer repetitions (semibench run
// --reps) than it needs.
func Samples(f *bench.File, min int) (records, short, fewest int) {
	latest := bench.Latest(f.Records)
	for i := range latest {
		r := &latest[i]
		if r.Status != bench.StatusOK {
			continue
		}
		least := 0
		for _, p := range r.Phases {
			if n := len(benchSamples(p)); n > 0 && (least == 0 || n < least) {
				least = n
			}
		}
		if least == 0 {
			continue
		}
		records++
		if least < min {
			short++
		}
		if fewest == 0 || least < fewest {
			fewest = least
		}
	}
	return records, short, fewest
}

// benchName is "Benchmark" + the experiment (first letter upper-cased, its
// '/' kept) + impl= and the parameters as sub-benchmark keys.
func benchName(r *bench.Record) string {
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
