package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"

	"github.com/semibench/semibench/bench"
)

// fixture reads a file of testdata/compare.
func fixture(t *testing.T, name string) *bench.File {
	t.Helper()
	f, err := bench.ReadFile(filepath.Join("testdata", "compare", name))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// metricsWork is the work a record's metrics carry, as
// experiments.WorkOf gives it for the fixtures.
func metricsWork(r *bench.Record) (bench.Work, bool) { return bench.WorkFromMetrics(r.Metrics) }

// metricsWindow is the window a record's metrics carry, as
// experiments.WindowOf gives it for the fixtures.
func metricsWindow(r *bench.Record) (bench.Window, bool) { return bench.WindowFromMetrics(r.Metrics) }

// lapChanged is a CodeChanges as cmd/semibench computes it when the LAP's
// GPU package changed between the fixtures' commits.
func lapChanged(from, to string) CodeChanges {
	return CodeChanges{
		Groups: []ChangedCode{{Impls: "lap: cuda/paper, cuda/hungarian-n3, cuda/fast", Paths: []string{"impls/cuda/lap", "kernels/lap.cu"}}},
		Changed: func(exp, impl string) bool {
			return strings.HasPrefix(exp, "hungarian/") && strings.HasPrefix(impl, "cuda/")
		},
	}
}

// handGeoMean recomputes, from a fixture pair's JSON lines and nothing of
// this package, the geometric mean of the first file's median total over
// the second's for the ok cuda/* cells of exp that both have.
func handGeoMean(t *testing.T, exp, a, b string) (float64, int) {
	t.Helper()
	read := func(name string) map[string]float64 {
		data, err := os.ReadFile(filepath.Join("testdata", "compare", name))
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]float64{}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var r struct {
				Experiment, Impl, Status string
				Params                   []struct{ Name, Value string }
				Phases                   []struct {
					Name     string
					MedianMS float64 `json:"median_ms"`
				}
			}
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.Experiment != exp || r.Status != "ok" || !strings.HasPrefix(r.Impl, "cuda/") {
				continue
			}
			key := r.Impl
			for _, p := range r.Params {
				key += "," + p.Name + "=" + p.Value
			}
			for _, p := range r.Phases {
				if p.Name == "total" {
					out[key] = p.MedianMS
				}
			}
		}
		return out
	}
	ma, mb := read(a), read(b)
	sum, n := 0.0, 0
	for k, x := range ma {
		if y, ok := mb[k]; ok {
			sum += math.Log(x / y)
			n++
		}
	}
	return math.Exp(sum / float64(n)), n
}

// TestCompareDeviceRowByHand (issue 55's check): with --across-commits,
// hungarian/table1's device row is the geometric mean of the H100/H200
// ratios of its cuda/* cells' headline times, recomputed here from the
// fixtures' JSON; without it, the cells of the changed LAP code are left
// out and marked, and the first lines name both commits and the changed
// implementations.
func TestCompareDeviceRowByHand(t *testing.T) {
	files := []*bench.File{fixture(t, "gpu-h100.jsonl"), fixture(t, "gpu-h200.jsonl")}
	want, n := handGeoMean(t, "hungarian/table1", "gpu-h100.jsonl", "gpu-h200.jsonl")
	if n != 18 {
		t.Fatalf("the fixtures share %d cuda/* cells of hungarian/table1, want 18", n)
	}
	tables, err := Compare(files, nil, CompareOptions{AcrossCommits: true, Work: metricsWork, Code: lapChanged})
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := split(t, tables)
	dev := row(t, sum, "hungarian/table1*", "device")
	got, err := strconv.ParseFloat(strings.TrimSuffix(dev[3], "x"), 64)
	if err != nil || dev[2] != strconv.Itoa(n) {
		t.Fatalf("device row %q", dev)
	}
	if math.Abs(got/want-1) > 0.005 { // three significant digits printed; the issue asks for 2%
		t.Errorf("device ratio %v, by hand %v", got, want)
	}
	// Without the flag: the LAP's GPU cells are out, kleene/table3's stay.
	tables, err = Compare(files, nil, CompareOptions{Work: metricsWork, Code: lapChanged})
	if err != nil {
		t.Fatal(err)
	}
	sum, _ = split(t, tables)
	if got := strings.Join(row(t, sum, "hungarian/table1*", "device")[2:4], "|"); got != "0|—" {
		t.Errorf("changed cells kept: %q", got)
	}
	if got := row(t, sum, "kleene/table3", "device")[2]; got != "3" {
		t.Errorf("kleene/table3's device cells %q, want 3", got)
	}
	first := strings.Join(tables[0].Notes, "\n")
	for _, w := range []string{"H100 ran 46bc881, H200 ran 892233e", "lap: cuda/paper, cuda/hungarian-n3, cuda/fast (impls/cuda/lap, kernels/lap.cu)", "marked *"} {
		if !strings.Contains(first, w) {
			t.Errorf("the preface lacks %q:\n%s", w, first)
		}
	}
	// Without a way to read the code's history, every implementation may
	// have changed: no GPU or CPU cell enters a ratio.
	tables, err = Compare(files, nil, CompareOptions{Work: metricsWork})
	if err != nil {
		t.Fatal(err)
	}
	sum, _ = split(t, tables)
	for _, r := range sum.Rows {
		if r[2] != "0" {
			t.Errorf("code unknown, yet row %q has cells", r)
		}
	}
}

// TestCompareBounds: apsp/blocked's float32 closure at n = 16384 is
// compute-bound on both GPUs at 85% of the (min,+) issue rate (n³ updates
// over 132 SMs × 1980 MHz × 64 a clock), and treefix/fig7's cuda/vectorial
// at 2^24 is bandwidth-bound in the window its paper times (write, scan
// and read: 48 bytes a vertex) on both, while its whole device time, the
// Euler tour's for the most part, is bound by neither.
func TestCompareBounds(t *testing.T) {
	for _, tc := range []struct {
		a, b, exp, bound, cell, whole string
	}{
		{"apsp-h100.jsonl", "apsp-h200.jsonl", "apsp/blocked", "compute 85% · 85%", "compute 85% · 85%", "compute 85% · 85%"},
		// Caterpillar first: 80% and 62% of 3.35 and 4.81 TB/s; the row
		// the median of the two trees.
		{"tf-h100.jsonl", "tf-h200.jsonl", "treefix/fig7", "write+scan+read: memory 78% · 61%; whole: neither 8.4% · 7.5%",
			"write+scan+read: memory 80% · 62%; whole: neither 8.4% · 7.4%", "neither 8.4% · 7.5%"},
	} {
		files := []*bench.File{fixture(t, tc.a), fixture(t, tc.b)}
		tables, err := Compare(files, nil, CompareOptions{AcrossCommits: true, Cells: true, Work: metricsWork, Window: metricsWindow})
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := split(t, tables)
		if got := row(t, sum, tc.exp+"*", "device")[8]; got != tc.bound {
			t.Errorf("%s: bound %q, want %q", tc.exp, got, tc.bound)
		}
		cells := tableTitled(t, tables, tc.exp+": GPU cells")
		if got := cells.Rows[0][5]; got != tc.cell {
			t.Errorf("%s: first cell's bound %q, want %q", tc.exp, got, tc.cell)
		}
		if tc.exp == "treefix/fig7" && !strings.HasPrefix(cells.Rows[0][6], "euler_tour 9") {
			t.Errorf("%s: most time %q, want the Euler tour's", tc.exp, cells.Rows[0][6])
		}
		// Without windows, the whole cells' bound alone, as before.
		tables, err = Compare(files, nil, CompareOptions{AcrossCommits: true, Work: metricsWork})
		if err != nil {
			t.Fatal(err)
		}
		sum, _ = split(t, tables)
		if got := row(t, sum, tc.exp+"*", "device")[8]; got != tc.whole {
			t.Errorf("%s without windows: bound %q, want %q", tc.exp, got, tc.whole)
		}
	}
	// By hand: 16384³ updates in the H100's median closure window.
	f := fixture(t, "apsp-h100.jsonl")
	r := &f.Records[0]
	ms := r.Phase("total").MedianMS
	hand := math.Pow(16384, 3) / (132 * 1980e6 * 64) / (ms / 1e3)
	w, _ := metricsWork(r)
	if _, comp := PeaksOf(f.Machine.GPUs[0]).Fractions(w, ms); math.Abs(comp-hand) > 1e-9 || hand < 0.84 || hand > 0.86 {
		t.Errorf("compute fraction %v, by hand %v", comp, hand)
	}
	// By hand: 48 bytes a vertex of the caterpillar's write, scan and read
	// at 2^24 in the sum of their medians, over 2 × 2619 MHz × 5120 bits.
	f = fixture(t, "tf-h100.jsonl")
	r = &f.Records[0]
	ms = r.Phase("write").MedianMS + r.Phase("scan").MedianMS + r.Phase("read").MedianMS
	hand = 48 * math.Pow(2, 24) / (2 * 2619e6 * 5120 / 8) / (ms / 1e3)
	win, _ := metricsWindow(r)
	wms, ok := win.WindowMS(r)
	if mem, _ := PeaksOf(f.Machine.GPUs[0]).Fractions(win.Work, wms); !ok || math.Abs(mem-hand) > 1e-9 || hand < 0.79 || hand > 0.81 {
		t.Errorf("window's memory fraction %v, by hand %v", mem, hand)
	}
}

// TestPeaksOf: the headers' ceilings, and what a header lacks.
func TestPeaksOf(t *testing.T) {
	h100 := bench.GPU{Name: "NVIDIA H100 80GB HBM3", ComputeCapability: "9.0", SMs: 132, ClockMHz: 1980, MemoryClockMHz: 2619, MemoryBusBits: 5120}
	p := PeaksOf(h100)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"bandwidth", p.BytesPerS, 2 * 2619e6 * 5120 / 8}, // 3.35 TB/s
		{"updates", p.UpdatesPerS, 132 * 1980e6 * 64},     // the min/max rate
		{"flops", p.FlopsPerS, 132 * 1980e6 * 128 * 2},    // 66.9 Tflop/s, NVIDIA's figure
		{"int ops", p.IntOpsPerS, 132 * 1980e6 * 64},
	} {
		if math.Abs(c.got/c.want-1) > 1e-12 {
			t.Errorf("%s: %v, want %v", c.name, c.got, c.want)
		}
	}
	h200 := h100
	h200.MemoryClockMHz, h200.MemoryBusBits = 3201, 6016
	mem, ops := PredictedRatios(p, PeaksOf(h200), bench.Work{Updates: 1})
	if math.Abs(mem-1.436) > 0.001 || ops != 1 {
		t.Errorf("H100/H200 predicted: memory %v, compute %v; want 1.436 and 1", mem, ops)
	}
	odd := PeaksOf(bench.GPU{Name: "x", ComputeCapability: "12.7", SMs: 10, ClockMHz: 1000})
	if odd.BytesPerS != 0 || odd.UpdatesPerS != 0 || !strings.Contains(odd.Why, "12.7") || !strings.Contains(odd.Why, "memory clock") {
		t.Errorf("a header without memory figures or a known capability: %+v", odd)
	}
	for _, c := range []struct {
		mem, comp float64
		class     string
	}{{0.7, 0.1, BoundMemory}, {0.1, 0.85, BoundCompute}, {0.3, 0.2, BoundNeither}, {math.NaN(), 0.6, BoundCompute}} {
		if got, _ := Bound(c.mem, c.comp); got != c.class {
			t.Errorf("Bound(%v, %v) = %q, want %q", c.mem, c.comp, got, c.class)
		}
	}
}

// TestSideTimes: a GPU cell's device time leaves out the copies inside its
// total (kleene/table3's cuda/paper times h2d inside), its transfers are
// every copy, and its host time the rest of end to end.
func TestSideTimes(t *testing.T) {
	f := fixture(t, "gpu-h100.jsonl")
	for i := range f.Records {
		r := &f.Records[i]
		if r.Experiment != "kleene/table3" {
			continue
		}
		st := sideTimes(r)
		h2d, d2h := r.Phase("h2d"), r.Phase("d2h")
		if h2d.Scope != bench.ScopeTotal {
			t.Fatalf("fixture: h2d is not inside total")
		}
		if d := st[Device].ms - (r.Phase("total").MedianMS - h2d.MedianMS); math.Abs(d) > 0.05*st[Device].ms {
			t.Errorf("%s: device %v, total - h2d %v", r.Key(), st[Device].ms, r.Phase("total").MedianMS-h2d.MedianMS)
		}
		if st[Transfers].ms < h2d.MedianMS || st[Transfers].ms < d2h.MedianMS {
			t.Errorf("%s: transfers %v below a copy", r.Key(), st[Transfers].ms)
		}
		if len(st[Device].samples) != len(r.Phase("total").SamplesMS) {
			t.Errorf("%s: device time not per sample", r.Key())
		}
		return
	}
	t.Fatal("no kleene/table3 cell in the fixture")
}

// TestCompareGPUGolden pins compare's default text, Markdown and CSV on
// the GPU fixtures, and holds the text to 120 columns.
func TestCompareGPUGolden(t *testing.T) {
	files := []*bench.File{fixture(t, "gpu-h100.jsonl"), fixture(t, "gpu-h200.jsonl")}
	tables, err := Compare(files, nil, CompareOptions{Work: metricsWork, Code: lapChanged, Claims: machineClaims})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range Formats() {
		var buf bytes.Buffer
		for _, tb := range tables {
			tb.Width = DefaultWidth
			if err := tb.Render(&buf, format); err != nil {
				t.Fatal(err)
			}
			buf.WriteString("\n")
		}
		if format == FormatText {
			for i, l := range strings.Split(buf.String(), "\n") {
				if w := runewidth.StringWidth(l); w > DefaultWidth {
					t.Errorf("line %d is %d wide: %q", i+1, w, l)
				}
			}
		}
		checkGolden(t, "compare-gpu."+format, buf.Bytes())
	}
}

// TestComparePeers: a published code's records, attached to each machine's
// file (Attach), get rows beside cuda/fast's over the same cells; a file
// of another machine, or our implementations at another commit, are
// refused.
func TestComparePeers(t *testing.T) {
	files := []*bench.File{fixture(t, "gpu-h100.jsonl"), fixture(t, "gpu-h200.jsonl")}
	p := bench.Params{{Name: "n", Value: "1024"}, {Name: "range", Value: "n"}}
	peer := func(f *bench.File, total, e2e float64) *bench.File {
		return &bench.File{Schema: bench.SchemaVersion, Machine: f.Machine, Records: []bench.Record{
			rec("hungarian/table1", "peer/hylac", p, bench.StatusOK, ph("total", total), ph("end_to_end", e2e)),
			rec("hungarian/table1", "cuda/fast", p, bench.StatusOK, ph("total", 2), ph("end_to_end", 3)),
		}}
	}
	if _, _, err := Attach(files, peer(files[0], 12, 30)); err == nil || !strings.Contains(err.Error(), "compare it as a file of its own") {
		t.Errorf("our cuda/fast at another commit attached: %v", err)
	}
	for i, tp := range [][2]float64{{12, 30}, {10, 20}} {
		x := peer(files[i], tp[0], tp[1])
		x.Semibench = files[i].Semibench
		if at, n, err := Attach(files, x); err != nil || at != i || n != 2 {
			t.Fatalf("Attach to %d: %d, %d, %v", i, at, n, err)
		}
	}
	other := &bench.File{Machine: bench.Machine{Label: "elsewhere"}}
	if _, _, err := Attach(files, other); err == nil || !strings.Contains(err.Error(), `"elsewhere"`) {
		t.Errorf("a file of another machine: %v", err)
	}
	tables, err := Compare(files, nil, CompareOptions{AcrossCommits: true})
	if err != nil {
		t.Fatal(err)
	}
	pt := tableTitled(t, tables, "Published codes")
	for _, want := range []string{"hungarian/table1|peer/hylac|1|1.20x|1.20-1.20|1.50x|1.50-1.50", "hungarian/table1|cuda/fast|1|1.00x|1.00-1.00|1.00x|1.00-1.00"} {
		found := false
		for _, r := range pt.Rows {
			found = found || strings.Join(r, "|") == want
		}
		if !found {
			t.Errorf("peers rows %q lack %q", pt.Rows, want)
		}
	}
}

// TestRowBoundText: a row's bound column names the window its cells were
// called by, says where only some cells declare one or they declare
// several, and gives the whole cells' bound after it only where its class
// differs.
func TestRowBoundText(t *testing.T) {
	b := func(class string, frac float64, k, n, windowed int, label string) rowBound {
		return rowBound{class: class, fraction: frac, k: k, n: n, windowed: windowed, label: label}
	}
	wsr := "write+scan+read"
	for _, tc := range []struct {
		paper, whole [2]rowBound
		want         string
	}{
		{[2]rowBound{b("compute", 0.85, 1, 1, 0, ""), b("compute", 0.85, 1, 1, 0, "")},
			[2]rowBound{b("compute", 0.85, 1, 1, 0, ""), b("compute", 0.85, 1, 1, 0, "")}, "compute 85% · 85%"},
		{[2]rowBound{b("memory", 0.78, 2, 2, 2, wsr), b("memory", 0.61, 2, 2, 2, wsr)},
			[2]rowBound{b("neither", 0.084, 2, 2, 0, ""), b("neither", 0.075, 2, 2, 0, "")},
			"write+scan+read: memory 78% · 61%; whole: neither 8.4% · 7.5%"},
		// One class by window and whole: the window's alone.
		{[2]rowBound{b("neither", 0.003, 3, 3, 3, "update_w"), b("neither", 0.002, 3, 3, 3, "update_w")},
			[2]rowBound{b("neither", 0.0005, 3, 3, 0, ""), b("neither", 0.0004, 3, 3, 0, "")}, "update_w: neither 0.3% · 0.2%"},
		// Some cells without a window, on one GPU a memory class.
		{[2]rowBound{b("neither", 0.11, 12, 20, 14, wsr), b("memory", 0.55, 11, 20, 14, wsr)},
			[2]rowBound{b("neither", 0.057, 20, 20, 0, ""), b("neither", 0.033, 20, 20, 0, "")},
			"write+scan+read where declared: neither 11% (12/20) · memory 55% (11/20); whole: neither 5.7% · 3.3%"},
		// Two windows' labels.
		{[2]rowBound{b("neither", 0.1, 2, 2, 2, ""), b("neither", 0.1, 2, 2, 2, wsr)},
			[2]rowBound{b("neither", 0.1, 2, 2, 0, ""), b("neither", 0.1, 2, 2, 0, "")}, "paper's windows: neither 10% · 10%"},
	} {
		if got := rowBoundText(tc.paper, tc.whole); got != tc.want {
			t.Errorf("rowBoundText = %q, want %q", got, tc.want)
		}
	}
}

// TestAttachSupersedesSkipped: a cell the compared file recorded skipped
// by its budget (a reproduce that did not reach it) takes the measured
// record of a file beside it, of the same commit; a measured cell keeps
// its own, and an extra record that was not measured adds nothing.
func TestAttachSupersedesSkipped(t *testing.T) {
	p := bench.Params{{Name: "n", Value: "8192"}, {Name: "range", Value: "n"}}
	q := bench.Params{{Name: "n", Value: "4096"}, {Name: "range", Value: "n"}}
	m := bench.Machine{Label: "h200"}
	run := &bench.File{Machine: m, Records: []bench.Record{
		rec("hungarian/table1", "cuda/fast", p, bench.StatusSkipped),
		rec("hungarian/table1", "cuda/fast", q, bench.StatusOK, ph("total", 5)),
	}}
	beside := &bench.File{Machine: m, Records: []bench.Record{
		rec("hungarian/table1", "cuda/fast", p, bench.StatusOK, ph("total", 7)),
		rec("hungarian/table1", "cuda/fast", q, bench.StatusOK, ph("total", 9)),
		rec("hungarian/table1", "peer/hylac", q, bench.StatusSkipped),
	}}
	files := []*bench.File{run}
	if at, n, err := Attach(files, beside); err != nil || at != 0 || n != 1 {
		t.Fatalf("Attach: %d, %d added, %v; want the skipped cell's measurement alone", at, n, err)
	}
	got := files[0].Records[len(files[0].Records)-1]
	if got.Key() != "hungarian/table1|cuda/fast|n=8192,range=n" || got.Status != bench.StatusOK {
		t.Errorf("added %s (%s)", got.Key(), got.Status)
	}
}
