package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// benchResult is one parsed benchmark line.
type benchResult struct {
	name  string
	iters int
	nsOp  float64
}

// parseBenchfmt is a small reader of the Go benchmark format: configuration
// lines "key: value" (key starts lower-case, no spaces) and result lines
// "BenchmarkName N value unit ...". It rejects anything else, so the test
// also checks that the writer emits nothing stray.
func parseBenchfmt(data []byte) (config map[string]string, results []benchResult, err error) {
	config = map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		l := sc.Text()
		if strings.HasPrefix(l, "Benchmark") {
			f := strings.Fields(l)
			if len(f) < 4 || len(f)%2 != 0 {
				return nil, nil, fmt.Errorf("line %d: malformed result %q", line, l)
			}
			n, err := strconv.Atoi(f[1])
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: iterations: %w", line, err)
			}
			r := benchResult{name: f[0], iters: n}
			for i := 2; i < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					return nil, nil, fmt.Errorf("line %d: value: %w", line, err)
				}
				if f[i+1] == "ns/op" {
					r.nsOp = v
				}
			}
			results = append(results, r)
			continue
		}
		key, value, ok := strings.Cut(l, ": ")
		if !ok || key == "" || strings.ContainsAny(key, " \t") || strings.ToLower(key) != key {
			return nil, nil, fmt.Errorf("line %d: neither a config nor a result line: %q", line, l)
		}
		if len(results) > 0 {
			return nil, nil, errors.New("config line after results")
		}
		config[key] = value
	}
	return config, results, sc.Err()
}

func TestWriteBenchfmt(t *testing.T) {
	f := &File{
		Schema:    SchemaVersion,
		Semibench: Build{Version: "v0.1.0", Commit: "abc123"},
		Machine: Machine{
			Label: "my host", CPU: "AMD EPYC 9654 96-Core Processor", Cores: 2, OS: "linux", Arch: "amd64",
			GPUs: []GPU{{Name: "NVIDIA H100 80GB HBM3", ComputeCapability: "9.0"}},
			CUDA: &CUDAInfo{Driver: "13.0", KernelPath: "nvrtc"},
		},
		Scale: "quick",
		Records: []Record{
			{Experiment: "kleene/table2", Impl: "cpu/paper", Params: Params{{"n", "500"}, {"weights", "normal"}}, Status: StatusOK,
				Phases: []Phase{
					{Name: "update_w", SamplesMS: []float64{142, 143.5, 141.25}, StatMS: 142},
					{Name: "total", SamplesMS: []float64{150, 151, 149}, StatMS: 150},
				}},
			// Spaces and '/' in values; a phase without samples.
			{Experiment: "lap/fig 1", Impl: "cpu/hungarian n3", Params: Params{{"dist", "uniform/0-100"}}, Status: StatusOK,
				Phases: []Phase{{Name: "step 4", StatMS: 1.6}}},
			// Not ok: left out.
			{Experiment: "kleene/table2", Impl: "cpu/fast", Params: Params{{"n", "500"}}, Status: StatusCheckFailed,
				Phases: []Phase{{Name: "total", SamplesMS: []float64{1}, StatMS: 1}}},
			{Experiment: "kleene/table2", Impl: "cpu/paper", Params: Params{{"n", "8000"}}, Status: StatusSkipped, EstimateMS: 1e6},
		},
	}
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, f); err != nil {
		t.Fatal(err)
	}
	config, results, err := parseBenchfmt(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	wantConfig := map[string]string{
		"goos": "linux", "goarch": "amd64", "cpu": "AMD EPYC 9654 96-Core Processor", "pkg": "semibench",
		"machine": "my host", "gpu": "NVIDIA H100 80GB HBM3 (cc 9.0)", "cuda-driver": "13.0",
		"kernel-path": "nvrtc", "semibench": "v0.1.0", "commit": "abc123", "scale": "quick",
	}
	for k, v := range wantConfig {
		if config[k] != v {
			t.Errorf("config %s = %q, want %q", k, config[k], v)
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
	f := &File{Schema: 1, Machine: Machine{Label: "xeon-e5645", OS: "Linux CentOS 6.3 x86-64"}, Source: "Table 2\nsection 5"}
	var buf bytes.Buffer
	if err := WriteBenchfmt(&buf, f); err != nil {
		t.Fatal(err)
	}
	config, results, err := parseBenchfmt(buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if config["goos"] != "linux" || config["os"] != "Linux CentOS 6.3 x86-64" || config["source"] != "Table 2 section 5" {
		t.Errorf("config %q", config)
	}
	if len(results) != 0 {
		t.Errorf("results from a file without records: %v", results)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteBenchfmtError(t *testing.T) {
	if err := WriteBenchfmt(failWriter{}, &File{Schema: 1}); err == nil || !strings.Contains(err.Error(), "disk full") {
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
