package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// capture runs the CLI with stdout redirected and returns the exit status,
// stdout and stderr.
func capture(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return captureCtx(t, context.Background(), args...)
}

// captureCtx is capture with the commands' context.
func captureCtx(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	var stderr bytes.Buffer
	done := make(chan string)
	go func() {
		var b bytes.Buffer
		b.ReadFrom(r)
		done <- b.String()
	}()
	code := dispatch(ctx, args, w, &stderr)
	w.Close()
	os.Stdout = old
	return code, <-done, stderr.String()
}

func TestExitStatus(t *testing.T) {
	cases := []struct {
		args       []string
		code       int
		wantStderr string
	}{
		{[]string{"help"}, 0, ""},
		{[]string{"run", "--help"}, 0, ""},
		{[]string{"bogus"}, 2, "unknown command"},
		{[]string{"run"}, 2, "name at least one experiment"},
		{[]string{"run", "kleene/tabel2"}, 2, "did you mean kleene/table2"},
		{[]string{"run", "kleene/table2", "--scale", "huge"}, 2, "unknown scale"},
		{[]string{"run", "kleene/table2", "--impl", "cpu/fsat"}, 2, "cpu/fast"},
		{[]string{"run", "kleene/table2", "--reps", "0"}, 2, "--reps"},
		{[]string{"table", filepath.Join(t.TempDir(), "missing.json")}, 1, "missing.json"},
		{[]string{"gen", "dag", "--n", "0", "--out", "x.mtx"}, 2, "--n"},
		{[]string{"solve", "kleene", "--in", "x.mtx", "--impl", "gpu/fast"}, 2, "unknown Kleene implementation"},
		{[]string{"compare", "one.json"}, 2, "at least 2 result file"},
	}
	for _, c := range cases {
		code, _, stderr := capture(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.wantStderr) {
			t.Errorf("semibench %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.wantStderr)
		}
	}
}

func TestListNamesEveryExperiment(t *testing.T) {
	code, out, _ := capture(t, "list")
	if code != 0 || !strings.Contains(out, "kleene/table2") || !strings.Contains(out, "kleene/table3") {
		t.Fatalf("list: exit %d, output %q", code, out)
	}
}

// TestQuickRunEndToEnd runs kleene/table2 and table3 at quick scale into a
// file, then reads it back through table, compare, plot and export.
func TestQuickRunEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run skipped in -short mode")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	code, stdout, stderr := capture(t, "run", "kleene/table2", "kleene/table3", "--scale", "quick", "--reps", "2", "--out", out)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "paper (Xeon E5645)") || !strings.Contains(stdout, "Update W") {
		t.Errorf("run printed no Table 2 layout:\n%s", stdout)
	}
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Records {
		switch {
		case strings.HasPrefix(r.Impl, "cpu/") && r.Status != bench.StatusOK:
			t.Errorf("%s: %s %s", r.Key(), r.Status, r.Error)
		case strings.HasPrefix(r.Impl, "cuda/") && r.Status != bench.StatusOK && r.Status != bench.StatusUnavailable:
			t.Errorf("%s: %s %s", r.Key(), r.Status, r.Error)
		}
	}
	if code, stdout, stderr = capture(t, "table", out, "--format", "markdown"); code != 0 || !strings.Contains(stdout, "| n |") {
		t.Errorf("table: exit %d %s\n%s", code, stderr, stdout)
	}
	if code, _, stderr = capture(t, "plot", out, "--dir", filepath.Join(dir, "plots")); code != 0 {
		t.Errorf("plot: exit %d %s", code, stderr)
	}
	if pngs, _ := filepath.Glob(filepath.Join(dir, "plots", "*.png")); len(pngs) == 0 {
		t.Error("plot wrote no PNG")
	}
	if code, stdout, stderr = capture(t, "export", "--benchfmt", out); code != 0 || !strings.Contains(stdout, "ns/op") {
		t.Errorf("export: exit %d %s", code, stderr)
	}
	if code, stdout, stderr = capture(t, "compare", out, out, "--phase", "total"); code != 0 || !strings.Contains(stdout, "cpu/paper") {
		t.Errorf("compare: exit %d %s\n%s", code, stderr, stdout)
	}
}

// TestGenSolveKleene generates a DAG with integer weights, solves it with
// both CPU implementations, and checks the outputs agree byte for byte and
// hold the diagonal's e = 0; a cyclic input is refused naming a node.
func TestGenSolveKleene(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "x.mtx")
	if code, _, stderr := capture(t, "gen", "dag", "--n", "40", "--seed", "7", "--int-weights", "--out", in); code != 0 {
		t.Fatalf("gen: exit %d %s", code, stderr)
	}
	var outs []string
	for _, impl := range []string{"cpu/paper", "cpu/fast"} {
		out := filepath.Join(dir, strings.ReplaceAll(impl, "/", "-")+".mtx")
		if code, _, stderr := capture(t, "solve", "kleene", "--in", in, "--out", out, "--impl", impl); code != 0 {
			t.Fatalf("solve --impl %s: exit %d %s", impl, code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(b))
	}
	if outs[0] != outs[1] {
		t.Error("cpu/paper and cpu/fast wrote different X*")
	}
	if !strings.Contains(outs[0], "\n1 1 0\n") {
		t.Errorf("X* lacks the diagonal e = 0:\n%.300s", outs[0])
	}
	cyc := filepath.Join(dir, "cycle.mtx")
	os.WriteFile(cyc, []byte("%%MatrixMarket matrix coordinate real general\n3 3 3\n2 1 1\n3 2 1\n1 3 1\n"), 0o644)
	if code, _, stderr := capture(t, "solve", "kleene", "--in", cyc); code != 1 || !strings.Contains(stderr, "cycle") {
		t.Errorf("cyclic input: exit %d, stderr %q", code, stderr)
	}
	bad := filepath.Join(dir, "bad.mtx")
	os.WriteFile(bad, []byte("%%MatrixMarket matrix coordinate real general\n3 3 1\n2 one 1\n"), 0o644)
	if code, _, stderr := capture(t, "solve", "kleene", "--in", bad); code != 1 || !strings.Contains(stderr, "bad.mtx:3") {
		t.Errorf("malformed input: exit %d, stderr %q", code, stderr)
	}
}

// TestTableMerge prints two runs of one machine, one implementation each, as
// one table (--merge) and refuses to merge files of two machines.
func TestTableMerge(t *testing.T) {
	dir := t.TempDir()
	paths := map[string]string{}
	for _, impl := range []string{"cpu/paper", "cpu/fast"} {
		p := filepath.Join(dir, strings.ReplaceAll(impl, "/", "-")+".json")
		if code, _, stderr := capture(t, "run", "kleene/table2", "--scale", "quick", "--reps", "1", "--warmup", "0", "--impl", impl, "--out", p); code != 0 {
			t.Fatalf("run %s: exit %d\n%s", impl, code, stderr)
		}
		paths[impl] = p
	}
	code, apart, _ := capture(t, "table", paths["cpu/paper"], paths["cpu/fast"], "--format", "csv")
	if code != 0 || strings.Count(apart, "== ") != 2 {
		t.Fatalf("table of two files: exit %d, want two sections:\n%s", code, apart)
	}
	code, merged, stderr := capture(t, "table", paths["cpu/paper"], paths["cpu/fast"], "--merge", "--format", "csv")
	if code != 0 || strings.Contains(merged, "== ") {
		t.Fatalf("table --merge: exit %d %s, want one section:\n%s", code, stderr, merged)
	}
	// The ratio cpu/paper / cpu/fast needs both runs' records in one table.
	// (CSV: the Update W rows' last column, cpu/paper / cpu/fast, holds a number.)
	hasRatio := func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, ",Update W,") && !strings.HasSuffix(l, ",") {
				return true
			}
		}
		return false
	}
	if hasRatio(apart) || !hasRatio(merged) {
		t.Errorf("ratio cpu/paper / cpu/fast: apart %v, merged %v (want false, true):\n%s", hasRatio(apart), hasRatio(merged), merged)
	}
	f, err := bench.ReadFile(paths["cpu/fast"])
	if err != nil {
		t.Fatal(err)
	}
	f.Machine.Label = "another-machine"
	other := filepath.Join(dir, "other.json")
	if err := bench.WriteFile(other, f); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := capture(t, "table", paths["cpu/paper"], other, "--merge"); code == 0 || !strings.Contains(stderr, "another-machine") {
		t.Errorf("merge of two machines: exit %d, stderr %q", code, stderr)
	}
}

// TestScalesAgree: the scales a result file's header may name (bench.Scales,
// which the readers check) are the experiments' scales.
func TestScalesAgree(t *testing.T) {
	var names []string
	for _, sc := range experiments.Scales {
		names = append(names, string(sc))
	}
	if !slices.Equal(names, bench.Scales) {
		t.Errorf("experiments.Scales %v, bench.Scales %v: the readers would refuse or accept the wrong scales", names, bench.Scales)
	}
}
