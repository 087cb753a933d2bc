package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/problems/lap"
)

// TestPeersRecordUsage checks that bad arguments exit 2 with a message
// naming the problem, and write nothing.
func TestPeersRecordUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.json")
	base := []string{"peers", "record", "--out", out, "--experiment", "hungarian/table1", "--impl", "peer/hylac"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", []string{"peers"}, "subcommand"},
		{"unknown subcommand", []string{"peers", "write"}, "unknown subcommand"},
		{"no out", []string{"peers", "record", "--experiment", "hungarian/table1", "--impl", "peer/x", "--param", "n=512", "--param", "range=n", "--phase", "total=1"}, "--out is required"},
		{"unknown experiment", []string{"peers", "record", "--out", out, "--experiment", "kleene/table3", "--impl", "peer/x", "--phase", "total=1"}, "not one peers"},
		{"impl without peer/", append(clone(base[:6]), "--impl", "cuda/fast", "--param", "n=512", "--param", "range=n", "--phase", "total=1"), "peer/NAME"},
		{"not a cell", append(clone(base), "--param", "n=500", "--param", "range=n", "--phase", "total=1"), "not a cell"},
		{"missing param", append(clone(base), "--param", "n=512", "--phase", "total=1"), "not a cell"},
		{"bad param", append(clone(base), "--param", "n", "--phase", "total=1"), "NAME=VALUE"},
		{"no phase", append(clone(base), "--param", "n=512", "--param", "range=n"), "--phase"},
		{"breakdown phase", append(clone(base), "--param", "n=512", "--param", "range=n", "--phase", "step4=1"), "total and end_to_end only"},
		{"bad sample", append(clone(base), "--param", "n=512", "--param", "range=n", "--phase", "total=1,x"), "not a positive"},
		{"negative sample", append(clone(base), "--param", "n=512", "--param", "range=n", "--phase", "total=-1"), "not a positive"},
		{"cost without instance", append(clone(base), "--param", "n=512", "--param", "range=n", "--phase", "total=1", "--cost", "7"), "go together"},
		{"recurrence on LAP", append(clone(base), "--param", "n=512", "--param", "range=n", "--phase", "total=1", "--recurrence", "r0=1,n0=1,a=1,b=1"), "domination/table2"},
		{"bad recurrence", []string{"peers", "record", "--out", out, "--experiment", "domination/table2", "--impl", "peer/2domination", "--param", "m=7", "--phase", "total=1", "--recurrence", "r0=1"}, "r0=R"},
	}
	for _, c := range cases {
		code, _, stderr := capture(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.name, code, stderr, c.want)
		}
	}
	if _, err := bench.ReadFile(out); err == nil {
		t.Errorf("a rejected call wrote %s", out)
	}
}

func clone(s []string) []string { return append([]string(nil), s...) }

// TestPeersRecordLAP writes two records into one file: a right cost (ok)
// and a wrong one (check-failed), on semibench's own instance, and reads
// them back with the experiment's parameters, every sample and the median.
func TestPeersRecordLAP(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "c.csv"), filepath.Join(dir, "sub", "p.json")
	if code, _, stderr := capture(t, "gen", "lap", "--n", "64", "--range", "0.1n", "--seed", "1", "--out", in); code != 0 {
		t.Fatalf("gen lap: %d %s", code, stderr)
	}
	c, err := lapcost.Generate(64, 64, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := &lap.Matrix{Rows: 64, Cols: 64, C: c}
	ref, err := lap.SolveJV(context.Background(), m, nil)
	if err != nil {
		t.Fatal(err)
	}
	args := func(impl string, cost int64) []string {
		return []string{"peers", "record", "--out", out, "--experiment", "hungarian/table1", "--impl", impl,
			"--param", "range=0.1n", "--param", "n=64", "--phase", "end_to_end=4,5,6", "--phase", "total=3,1,2,10",
			"--cost", strconv.FormatInt(cost, 10), "--instance", in,
			"--note", "our instance", "--file-note", "peer: x at abc"}
	}
	if code, _, stderr := capture(t, args("peer/hylac", ref.Cost)...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	if code, _, stderr := capture(t, args("peer/hungariangpu", ref.Cost+1)...); code != 0 {
		t.Fatalf("record (wrong cost): exit %d: %s", code, stderr)
	}
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	peerNotes := 0
	for _, n := range f.Notes {
		if n == "peer: x at abc" {
			peerNotes++
		}
	}
	if len(f.Records) != 2 || peerNotes != 1 || len(f.Notes) > 3 || f.Machine.Label == "" {
		t.Fatalf("file: %d records, notes %q, machine %q", len(f.Records), f.Notes, f.Machine.Label)
	}
	r := f.Records[0]
	if r.Key() != "hungarian/table1|peer/hylac|n=64,range=0.1n" || r.Status != bench.StatusOK || r.Check == nil || !r.Check.OK {
		t.Fatalf("record 0: %s status %s check %+v", r.Key(), r.Status, r.Check)
	}
	if r.Input == nil || r.Input.Hash != lapcost.Hash(c) || r.Input.Seed != 1 || r.Statistic != bench.StatMedian {
		t.Errorf("record 0 input %+v statistic %q", r.Input, r.Statistic)
	}
	tot, e2e := r.Phase(bench.TotalPhase), r.Phase(bench.EndToEndPhase)
	if tot == nil || e2e == nil || len(tot.SamplesMS) != 4 || tot.MedianMS != 2.5 || tot.StatMS != 2.5 || e2e.MedianMS != 5 || r.Phases[0].Name != bench.TotalPhase {
		t.Errorf("phases %+v", r.Phases)
	}
	if !tot.Unsteady() {
		t.Errorf("total's samples 1..10 around 2.5 should be flagged unsteady")
	}
	w := f.Records[1]
	if w.Status != bench.StatusCheckFailed || w.Check == nil || w.Check.OK || w.Check.MaxErr != 1 {
		t.Errorf("wrong cost: status %s check %+v", w.Status, w.Check)
	}
}

// TestPeersRecordWrongInstance refuses an instance that is not the cell's.
func TestPeersRecordWrongInstance(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "c.csv"), filepath.Join(dir, "p.json")
	if code, _, _ := capture(t, "gen", "lap", "--n", "64", "--range", "n", "--seed", "2", "--out", in); code != 0 {
		t.Fatal("gen lap failed")
	}
	code, _, stderr := capture(t, "peers", "record", "--out", out, "--experiment", "hungarian/table1", "--impl", "peer/hylac",
		"--param", "n=64", "--param", "range=n", "--phase", "total=1", "--cost", "1", "--instance", in)
	if code != 1 || !strings.Contains(stderr, "not the cell's instance") {
		t.Errorf("seed 2's instance for seed 1's cell: exit %d, %q", code, stderr)
	}
}

// TestPeersRecordDomination checks a peer's recurrence against ours at
// m = 4 (a quick cell of domination/table2).
func TestPeersRecordDomination(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.json")
	rec := func(r string) bench.Record {
		code, _, stderr := capture(t, "peers", "record", "--out", out, "--experiment", "domination/table2", "--impl", "peer/2domination",
			"--param", "m=4", "--phase", "total=7", "--recurrence", r)
		if code != 0 {
			t.Fatalf("record %s: exit %d %s", r, code, stderr)
		}
		f, err := bench.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return f.Records[len(f.Records)-1]
	}
	bad := rec("r0=1,n0=1,a=1,b=1")
	if bad.Status != bench.StatusCheckFailed || !strings.Contains(bad.Check.Detail, "semibench") {
		t.Fatalf("wrong recurrence: %s %+v", bad.Status, bad.Check)
	}
	// Ours, read back from the failed check's detail, must pass.
	var want []string
	for _, d := range strings.Split(bad.Check.Detail, "; ") {
		k, _, _ := strings.Cut(d, ":")
		want = append(want, k+"="+d[strings.LastIndex(d, " ")+1:])
	}
	good := rec(strings.Join(want, ","))
	if good.Status != bench.StatusOK || !good.Check.OK || good.Params.String() != "m=4" {
		t.Errorf("right recurrence %v: %s %+v", want, good.Status, good.Check)
	}
}

// TestPeersRecordBatch: a batch peer's objectives are checked one by one
// against the certified optima of the cell's batch; a wrong batch file or
// a short costs file is refused.
func TestPeersRecordBatch(t *testing.T) {
	dir := t.TempDir()
	in, out, costs := filepath.Join(dir, "b.txt"), filepath.Join(dir, "p.json"), filepath.Join(dir, "c.txt")
	if code, _, stderr := capture(t, "gen", "lap", "--n", "16", "--range", "n", "--count", "300", "--out", in); code != 0 {
		t.Fatalf("gen lap --count: %d %s", code, stderr)
	}
	c, err := lapcost.GenerateBatch(300, 16, 16, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := lap.JV.SolveBatch(context.Background(), &lap.Batch{Count: 300, Rows: 16, Cols: 16, Int: c}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, r := range ref.Int {
		lines = append(lines, strconv.FormatInt(r.Cost, 10))
	}
	write := func(ls []string) {
		if err := os.WriteFile(costs, []byte(strings.Join(ls, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := func(impl, batch string) []string {
		return []string{"peers", "record", "--out", out, "--experiment", "hungarian/batch", "--impl", impl,
			"--param", "n=16", "--param", "range=n", "--param", "count=300", "--phase", "end_to_end=4,5,6",
			"--instance", batch, "--costs", costs}
	}
	write(lines)
	if code, _, stderr := capture(t, args("peer/hylac-stream", in)...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	bad := slices.Clone(lines)
	bad[4] = "999999"
	write(bad)
	if code, _, stderr := capture(t, args("peer/hylac-stream", in)...); code != 0 {
		t.Fatalf("record (a wrong objective): exit %d: %s", code, stderr)
	}
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 2 || f.Records[0].Check == nil || !f.Records[0].Check.OK || f.Records[1].Check == nil || f.Records[1].Check.OK ||
		!strings.Contains(f.Records[1].Check.Detail, "problem 5") {
		t.Fatalf("records: %+v", f.Records)
	}
	write(lines[:299])
	if code, _, stderr := capture(t, args("peer/hylac-stream", in)...); code != 1 || !strings.Contains(stderr, "299 objectives for 300 problems") {
		t.Errorf("short costs file: exit %d, %q", code, stderr)
	}
	other := filepath.Join(dir, "other.txt")
	if code, _, stderr := capture(t, "gen", "lap", "--n", "16", "--range", "n", "--count", "300", "--seed", "2", "--out", other); code != 0 {
		t.Fatalf("gen lap: %d %s", code, stderr)
	}
	write(lines)
	if code, _, stderr := capture(t, args("peer/hylac-stream", other)...); code != 1 || !strings.Contains(stderr, "not the cell's batch") {
		t.Errorf("another batch: exit %d, %q", code, stderr)
	}
}

// TestPeersRecordBatchFloat: a hungarian/batch-float peer's answers (the
// objective as a float32 sum, then the assignment) pass on the cell's
// batch; a wrong objective makes a check-failed record naming its
// problem; another seed's batch is refused; --cost is bad usage there.
func TestPeersRecordBatchFloat(t *testing.T) {
	dir := t.TempDir()
	in, out, answers := filepath.Join(dir, "b.txt"), filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "a.txt")
	gen := func(seed, path string) {
		if code, _, stderr := capture(t, "gen", "lap", "--dist", "uniform01", "--n", "100", "--cols", "300", "--count", "8", "--seed", seed, "--out", path); code != 0 {
			t.Fatalf("gen lap --dist uniform01: %d %s", code, stderr)
		}
	}
	gen("1", in)
	b, err := lap.ReadBatchFile(in)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := lap.JV.SolveBatch(context.Background(), b, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for k, r := range ref.Float {
		var sum float32 // as the peer sums its costs
		line := ""
		for i, j := range r.Assignment {
			sum += float32(b.Float[k*b.Size()+i*b.Cols+j])
			line += "," + strconv.Itoa(j)
		}
		lines = append(lines, strconv.FormatFloat(float64(sum), 'g', -1, 64)+line)
	}
	write := func(ls []string) {
		if err := os.WriteFile(answers, []byte(strings.Join(ls, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := func(batch string, extra ...string) []string {
		return append([]string{"peers", "record", "--out", out, "--experiment", "hungarian/batch-float", "--impl", "peer/torch-linear-assignment",
			"--param", "rows=100", "--param", "cols=300", "--param", "count=8", "--phase", "total=2,3,4", "--phase", "end_to_end=5,6,7",
			"--instance", batch, "--costs", answers}, extra...)
	}
	write(lines)
	if code, _, stderr := capture(t, args(in)...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	bad := slices.Clone(lines)
	obj, cols, _ := strings.Cut(bad[5], ",")
	v, _ := strconv.ParseFloat(obj, 64)
	bad[5] = strconv.FormatFloat(v+0.001, 'g', -1, 64) + "," + cols
	write(bad)
	if code, _, stderr := capture(t, args(in)...); code != 0 {
		t.Fatalf("record (a wrong objective): exit %d: %s", code, stderr)
	}
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) != 2 {
		t.Fatalf("%d records", len(f.Records))
	}
	good, wrong := f.Records[0], f.Records[1]
	if good.Key() != "hungarian/batch-float|peer/torch-linear-assignment|rows=100,cols=300,count=8" || good.Status != bench.StatusOK || good.Check == nil || !good.Check.OK ||
		good.Input == nil || !strings.HasPrefix(good.Input.Hash, "xxh64c:") {
		t.Fatalf("record 0: %s %s %+v %+v", good.Key(), good.Status, good.Check, good.Input)
	}
	if wrong.Status != bench.StatusCheckFailed || !strings.Contains(wrong.Check.Detail, "problem 6: reported cost") {
		t.Errorf("a wrong objective: %s %+v", wrong.Status, wrong.Check)
	}
	other := filepath.Join(dir, "other.txt")
	gen("2", other)
	write(lines)
	if code, _, stderr := capture(t, args(other)...); code != 1 || !strings.Contains(stderr, "not the cell's batch") {
		t.Errorf("another batch: exit %d, %q", code, stderr)
	}
	if code, _, stderr := capture(t, args(in, "--cost", "3")...); code != 2 || !strings.Contains(stderr, "takes --costs") {
		t.Errorf("--cost on batch-float: exit %d, %q", code, stderr)
	}
}

// TestPeersRecordMachineOf records on this host samples measured on
// another machine: the file's header is the machine of --machine-of's
// file, and the record says where it was recorded; a file that cannot be
// read stops the call before anything is written.
func TestPeersRecordMachineOf(t *testing.T) {
	dir := t.TempDir()
	src, out := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "p.jsonl")
	app, err := bench.NewAppender(src, &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(),
		Machine: bench.Machine{Label: "gpu-host", CPU: "some CPU", Cores: 16}, Started: time.Now().UTC(), Scale: "paper"})
	if err != nil {
		t.Fatal(err)
	}
	if err := app.Close(); err != nil {
		t.Fatal(err)
	}
	args := func(machineOf string) []string {
		return []string{"peers", "record", "--out", out, "--experiment", "hungarian/table1", "--impl", "peer/hylac",
			"--param", "n=64", "--param", "range=n", "--phase", "end_to_end=4,5,6", "--machine-of", machineOf}
	}
	if code, _, stderr := capture(t, args(filepath.Join(dir, "absent.jsonl"))...); code != 1 || !strings.Contains(stderr, "--machine-of") {
		t.Errorf("an absent --machine-of file: exit %d, %q", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatalf("a refused call wrote %s", out)
	}
	if code, _, stderr := capture(t, args(src)...); code != 0 {
		t.Fatalf("record: exit %d: %s", code, stderr)
	}
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Machine.Label != "gpu-host" || f.Machine.Cores != 16 || len(f.Records) != 1 {
		t.Fatalf("machine %+v, %d records", f.Machine, len(f.Records))
	}
	if note := f.Records[0].Note; !strings.Contains(note, "measured on gpu-host (the machine of run.jsonl); recorded and checked on ") {
		t.Errorf("record note %q", note)
	}
}
