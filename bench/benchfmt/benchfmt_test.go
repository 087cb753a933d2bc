package benchfmt

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// benchResult is one parsed benchmark line.
type benchResult struct {
	name  string
	iters int
	nsOp  float64
}

// parseBenchfmtComments is a small reader of the Go benchmark format: configuration
// lines "key: value" (key starts lower-case, no spaces), result lines
// "BenchmarkName N value unit ..." and the writer's comment lines
// "# key: value" (benchfmt ignores lines that are neither; the writer puts
// the machine there). It rejects anything else, so the test also checks
// that the writer emits nothing stray.
// It also returns the comment lines' "key: value" pairs.
func parseBenchfmtComments(data []byte) (config, comments map[string]string, results []benchResult, err error) {
	config, comments = map[string]string{}, map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if strings.HasPrefix(l, "Benchmark") {
			f := strings.Fields(l)
			if len(f) < 4 || len(f)%2 != 0 {
				return nil, nil, nil, fmt.Errorf("line %d: malformed result %q", line, l)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, nil, nil, fmt.Errorf("line %d: iterations: %w", line, err)
			}
			r := benchResult{name: f[0], iters: n}
			for i := 2; i < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					return nil, nil, nil, fmt.Errorf("line %d: value: %w", line, err)
				}
				if f[i+1] == "ns/op" {
					r.nsOp = v
				}
			}
			results = append(results, r)
			continue
		}
		if len(results) > 0 {
			return nil, nil, nil, fmt.Errorf("line %d: header line after results: %q", line, l)
		}
		if c, ok := strings.CutPrefix(l, "# "); ok {
			if key, value, ok := strings.Cut(c, ": "); ok && key != "" && !strings.ContainsAny(key, " \t") {
				comments[key] = value
			}
			continue
		}
		key, value, ok := strings.Cut(l, ": ")
		if !ok || key == "" || strings.ContainsAny(key, " \t") || strings.ToLower(key) != key {
			return nil, nil, nil, fmt.Errorf("line %d: neither a config, comment nor result line: %q", line, l)
		}
		config[key] = value
	}
	return config, comments, results, sc.Err()
}

func TestWriteBenchfmt(t *testing.T) {
	f := &bench.File{
		Schema:    bench.SchemaVersion,
		Semibench: bench.Build{Version: "v0.1.0", Commit: "abc123"},
		Machine: bench.Machine{
			Label: "my host", CPU: "AMD EPYC 9654 96-Core Processor", Cores: 2, OS: "linux", Arch: "amd64",
			GPUs: []bench.GPU{{Name: "NVIDIA H100 80GB HBM3", ComputeCapability: "9.0"}},
			CUDA: &bench.CUDAInfo{Driver: "13.0", KernelPath: "nvrtc"},
		},
		Scale: "quick",
		Records: []bench.Record{
			{Experiment: "kleene/table2", Impl: "cpu/paper", Params: bench.Params{{Name: "n", Value: "500"}, {Name: "weights", Value: "normal"}}, Status: bench.StatusOK,
				Phases: []bench.Phase{
					{Name: "update_w", SamplesMS: []float64{142, 143.5, 141.25}, StatMS: 142},
					{Name: "total", SamplesMS: []float64{150, 151, 149}, StatMS: 150},
				}},
			// Spaces and '/' in values; a phase without samples.
			{Experiment: "lap/fig 1", Impl: "cpu/hungarian n3", Params: bench.Params{{Name: "dist", Value: "uniform/0-100"}}, Status: bench.StatusOK,
				Phases: []bench.Phase{{Name: "step 4", StatMS: 1.6}}},
			// Not ok: left out.
			{Experiment: "kleene/table2", Impl: "cpu/fast", Params: bench.Params{{Name: "n", Value: "500"}}, Status: bench.StatusCheckFailed,
				Phases: []bench.Phase{{Name: "total", SamplesMS: []float64{1}, StatMS: 1}}},
			{Experiment: "kleene/table2", Impl: "cpu/paper", Params: bench.Params{{Name: "n", Value: "8000"}}, Status: bench.StatusSkipped, EstimateMS: 1e6},
		},
	}
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	config, comments, results, err := parseBenchfmtComments(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	// The only configuration line is the package: anything that differs
	// between machines or commits would make benchstat split its tables.
	if len(config) != 1 || config["pkg"] != "semibench" {
		t.Errorf("config %q, want only pkg: semibench", config)
	}
	wantComments := map[string]string{
		"goos": "linux", "goarch": "amd64", "cpu": "AMD EPYC 9654 96-Core Processor", "cores": "2",
		"machine": "my host", "gpu": "NVIDIA H100 80GB HBM3 (cc 9.0)", "cuda-driver": "13.0",
		"kernel-path": "nvrtc", "semibench": "v0.1.0", "commit": "abc123", "scale": "quick",
	}
	for k, v := range wantComments {
		if comments[k] != v {
			t.Errorf("comment %s = %q, want %q", k, comments[k], v)
		}
	}
	const (
		upd   = "BenchmarkKleene/table2/impl=cpu-paper/n=500/weights=normal/phase=update_w"
		total = "BenchmarkKleene/table2/impl=cpu-paper/n=500/weights=normal/phase=total"
		lap   = "BenchmarkLap/fig_1/impl=cpu-hungarian_n3/dist=uniform-0-100/phase=step_4"
	)
	want := []benchResult{
		{upd, 1, 142e6}, {upd, 1, 143.5e6}, {upd, 1, 141.25e6},
		{total, 1, 150e6}, {total, 1, 151e6}, {total, 1, 149e6},
		{lap, 1, 1.6e6},
	}
	if len(results) != len(want) {
		t.Fatalf("got %d result lines, want %d:\n%s", len(results), len(want), buf.String())
	}
	for i := range want {
		if results[i] != want[i] {
			t.Errorf("result %d = %+v, want %+v", i, results[i], want[i])
		}
	}
	// Float noise is rounded away: 1.6 ms is exactly 1600000 ns in the text.
	if !strings.Contains(buf.String(), lap+" 1 1600000 ns/op\n") {
		t.Errorf("1.6 ms not written as 1600000 ns:\n%s", buf.String())
	}
}

func TestWriteBenchfmtPaperOS(t *testing.T) {
	f := &bench.File{Schema: 1, Machine: bench.Machine{Label: "xeon-e5645", OS: "Linux CentOS 6.3 x86-64"}, Source: "Table 2\nsection 5"}
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	_, comments, results, err := parseBenchfmtComments(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if comments["goos"] != "linux" || comments["os"] != "Linux CentOS 6.3 x86-64" || comments["source"] != "Table 2 section 5" {
		t.Errorf("comments %q", comments)
	}
	if len(results) != 0 {
		t.Errorf("results from a file without records: %v", results)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteBenchfmtError(t *testing.T) {
	if err := Write(failWriter{}, &bench.File{Schema: 1}); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("error %v, want the writer's error", err)
	}
}

func TestBenchPart(t *testing.T) {
	tests := []struct{ in, want string }{
		{"cpu/paper", "cpu-paper"},
		{"step 4", "step_4"},
		{" a \t b ", "a_b"},
		{"", "-"},
		{"uniform/0-100", "uniform-0-100"},
	}
	for _, tc := range tests {
		if got := benchPart(tc.in); got != tc.want {
			t.Errorf("benchPart(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

var updateGolden = flag.Bool("update", false, "rewrite the golden files under testdata from the current output")

// exportGolden exports testdata/benchfmt/name.json and compares the text
// with name.golden (go test ./bench/report -run Golden -update rewrites it).
func exportGolden(t *testing.T, name string) []byte {
	t.Helper()
	f, err := bench.ReadFile(filepath.Join("testdata", "benchfmt", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, f); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "benchfmt", name+".golden")
	if *updateGolden {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./bench/report -run Golden -update to write it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("export of %s.json differs from %s:\n--- got\n%s--- want\n%s", name, golden, buf.String(), want)
	}
	return buf.Bytes()
}

// TestBenchfmtGolden exports two committed result files cut down to
// hungarian/table1 at n=512, range 0.1n: amd-epyc (a CPU-only machine,
// stamped with its commit; its cuda/fast cell unavailable) and an H100
// machine (no commit stamp, four implementations ok). Together they check
// that files from different machines and builds pair in benchstat: the
// configuration lines (benchstat's default -table .config) are identical,
// what differs is in comment lines, and the cell both machines measured
// has one benchmark name, every sample a line.
func TestBenchfmtGolden(t *testing.T) {
	texts := map[string][]byte{}
	for _, name := range []string{"amd-epyc", "h100"} {
		texts[name] = exportGolden(t, name)
	}
	amdConfig, amdComments, amd, err := parseBenchfmtComments(texts["amd-epyc"])
	if err != nil {
		t.Fatal(err)
	}
	h100Config, h100Comments, h100, err := parseBenchfmtComments(texts["h100"])
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(amdConfig, h100Config) {
		t.Errorf("configuration differs, benchstat would print two tables without deltas:\n amd-epyc %q\n h100 %q", amdConfig, h100Config)
	}
	if amdComments["machine"] == h100Comments["machine"] || amdComments["cpu"] == h100Comments["cpu"] {
		t.Errorf("the files' machines are not told apart in their comments: %q, %q", amdComments, h100Comments)
	}
	if amdComments["commit"] == "" || h100Comments["commit"] != "" || h100Comments["gpu"] == "" {
		t.Errorf("comments do not carry the commit and GPU: %q, %q", amdComments, h100Comments)
	}

	// The cell both measured: same names, 5 samples each per phase.
	count := func(rs []benchResult) map[string]int {
		n := map[string]int{}
		for _, r := range rs {
			n[r.name]++
		}
		return n
	}
	a, h := count(amd), count(h100)
	const jvTotal = "BenchmarkHungarian/table1/impl=cpu-jv/n=512/range=0.1n/phase=total"
	if a[jvTotal] != 5 || h[jvTotal] != 5 {
		t.Errorf("%s: %d and %d lines, want the 5 samples of each file", jvTotal, a[jvTotal], h[jvTotal])
	}
	var common []string
	for name := range a {
		if h[name] > 0 {
			common = append(common, name)
		}
	}
	slices.Sort(common)
	for _, name := range common {
		if !strings.HasPrefix(name, "BenchmarkHungarian/table1/impl=cpu-jv/n=512/range=0.1n/phase=") {
			t.Errorf("%s pairs, but only cpu/jv was measured on both machines", name)
		}
	}
	if len(common) < 3 {
		t.Errorf("only %d benchmark names in common: %v", len(common), common)
	}
	// amd-epyc's unavailable cuda/fast is not written.
	for name := range a {
		if strings.Contains(name, "impl=cuda-") {
			t.Errorf("amd-epyc exports %s, a cell that did not run there", name)
		}
	}
}

// TestBenchfmtPairsMachinesAndCommits writes one record under two files
// that differ in every machine and build field: the texts must differ only
// in comment lines, so benchstat puts the two in one table.
func TestBenchfmtPairsMachinesAndCommits(t *testing.T) {
	rec := bench.Record{Experiment: "kleene/table2", Impl: "cpu/fast", Params: bench.Params{{Name: "n", Value: "500"}}, Status: bench.StatusOK,
		Phases: []bench.Phase{{Name: "total", SamplesMS: []float64{1, 2, 3, 4, 5, 6}, StatMS: 3.5}}}
	a := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.Build{Version: "0.1.0", Commit: "aaaa"}, Scale: "paper",
		Machine: bench.Machine{Label: "a", CPU: "AMD EPYC", Cores: 2, OS: "linux", Arch: "amd64"},
		Records: []bench.Record{rec}}
	b := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.Build{Version: "0.2.0", Commit: "bbbb"}, Scale: "quick",
		Machine: bench.Machine{Label: "b", CPU: "Apple M2", Cores: 8, OS: "darwin", Arch: "arm64",
			GPUs: []bench.GPU{{Name: "NVIDIA H200"}}, CUDA: &bench.CUDAInfo{Driver: "13.0", NVRTC: "13.0", KernelPath: "cubin"}},
		Records: []bench.Record{rec}}
	var ta, tb bytes.Buffer
	if err := Write(&ta, a); err != nil {
		t.Fatal(err)
	}
	if err := Write(&tb, b); err != nil {
		t.Fatal(err)
	}
	uncommented := func(text string) []string {
		var keep []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.HasPrefix(l, "#") {
				keep = append(keep, l)
			}
		}
		return keep
	}
	if ua, ub := uncommented(ta.String()), uncommented(tb.String()); !slices.Equal(ua, ub) {
		t.Errorf("the two exports differ outside comments:\n%s\n---\n%s", ta.String(), tb.String())
	}
	if ta.String() == tb.String() {
		t.Error("the two machines' exports are identical: the machine is not recorded")
	}
}

func TestBenchfmtSamples(t *testing.T) {
	cell := 0
	ok := func(samples ...int) bench.Record { // a cell of its own
		cell++
		r := bench.Record{Experiment: "e", Impl: "cpu/x", Status: bench.StatusOK, Params: bench.Params{{Name: "n", Value: fmt.Sprint(cell)}}}
		for i, n := range samples {
			p := bench.Phase{Name: fmt.Sprint("p", i), StatMS: 1}
			for range n {
				p.SamplesMS = append(p.SamplesMS, 1)
			}
			r.Phases = append(r.Phases, p)
		}
		return r
	}
	nan := ok(6)
	nan.Phases[0].SamplesMS[0] = math.NaN() // not written: 5 lines
	failed := ok(1)
	failed.Status = bench.StatusFailed
	short, refined := ok(1), ok(6)
	refined.Params = short.Params
	failedAgain := refined
	failedAgain.Status = bench.StatusFailed
	tests := []struct {
		name                   string
		recs                   []bench.Record
		records, short, fewest int
	}{
		{"none", nil, 0, 0, 0},
		{"enough", []bench.Record{ok(6, 10), ok(6)}, 2, 0, 6},
		{"default reps", []bench.Record{ok(5, 5), ok(6)}, 2, 1, 5},
		{"one short phase", []bench.Record{ok(10, 3)}, 1, 1, 3},
		{"paper statistic", []bench.Record{ok(0)}, 1, 1, 1},
		{"NaN not counted", []bench.Record{nan}, 1, 1, 5},
		{"not ok ignored", []bench.Record{failed, ok(7)}, 1, 0, 7},
		{"no phases", []bench.Record{{Experiment: "e", Impl: "cpu/x", Status: bench.StatusOK}}, 0, 0, 0},
		// A refined cell counts once, its latest record (issue 56, item 7).
		{"refined", []bench.Record{short, refined}, 1, 0, 6},
		{"re-run failed", []bench.Record{refined, failedAgain}, 0, 0, 0},
	}
	for _, tc := range tests {
		records, short, fewest := Samples(&bench.File{Records: tc.recs}, BenchstatMinSamples)
		if records != tc.records || short != tc.short || fewest != tc.fewest {
			t.Errorf("%s: Samples = %d, %d, %d, want %d, %d, %d", tc.name, records, short, fewest, tc.records, tc.short, tc.fewest)
		}
	}
}
