package example_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/example/experiments/widest"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/experimentstest"
	"github.com/semibench/semibench/runner"
)

// TestMain registers the toy paper: the one line a real paper adds to
// experiments/papers. Here it is only in this test binary, so no other
// package's tests (and no semibench command) see the example.
func TestMain(m *testing.M) {
	widest.Register()
	os.Exit(m.Run())
}

// run runs the example through the runner at quick scale into a temporary
// result file and reads the file back.
func run(t *testing.T) *bench.File {
	t.Helper()
	exps, err := experiments.Lookup(widest.Exp)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.jsonl")
	app, err := bench.NewAppender(path, &bench.File{Semibench: bench.CurrentBuild(), Machine: bench.Machine{Label: "test", CPU: "test CPU", Cores: 1}, Scale: string(experiments.Quick), Started: time.Unix(1, 0)})
	if err != nil {
		t.Fatal(err)
	}
	cfg := runner.Config{Scale: experiments.Quick, Reps: 2, Warmup: 1}
	if err := runner.Run(context.Background(), cfg, exps, app); err != nil {
		t.Fatal(err)
	}
	if err := app.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := bench.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestEndToEnd: every cell ok and checked, the table holds the paper's
// figures beside ours, the report shows the table and the claim, and the
// claim has a verdict (indicative: quick scale is below the paper's sizes).
func TestEndToEnd(t *testing.T) {
	f := run(t)
	if len(f.Records) != 6 {
		t.Fatalf("%d records, want 6 (2 implementations x 3 sizes)", len(f.Records))
	}
	for _, r := range f.Records {
		if r.Status != bench.StatusOK || r.Check == nil || !r.Check.OK || r.Phase(bench.TotalPhase) == nil {
			t.Errorf("%s: status %s, check %+v, error %q: want ok, checked, timed", r.Key(), r.Status, r.Check, r.Error)
		}
	}

	tables, err := experiments.RenderTables(f, "")
	if err != nil || len(tables) != 1 {
		t.Fatalf("RenderTables: %d tables, %v; want 1", len(tables), err)
	}
	rowOf := func(n string) []string {
		for _, row := range tables[0].Rows {
			if row[0] == n {
				return row
			}
		}
		t.Fatalf("no row n=%s in %v", n, tables[0].Rows)
		return nil
	}
	if row := rowOf("512"); row[1] != "—" || row[2] != "576.0" || row[3] != "—" || row[6] != "9.00x" {
		t.Errorf("n=512 row %q: want the paper's 576 ms and 9x beside no cell of ours", row)
	}
	if row := rowOf("96"); row[1] == "—" || row[2] != "—" || row[3] == "—" || row[5] == "—" || row[7] == "—" {
		t.Errorf("n=96 row %q: want our times and ratio, no paper figure", row)
	}
	notes := strings.Join(tables[0].Notes, "\n")
	if !strings.Contains(notes, "Checks: 6 ok") || !strings.Contains(notes, "Claim (Table 1)") {
		t.Errorf("table notes lack the check summary or the claim:\n%s", notes)
	}

	md := filepath.Join(t.TempDir(), "report.md")
	if err := experiments.WriteReport(md, f, nil, 0); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{tables[0].Title, "Widest (toy)", "One Floyd–Warshall sweep beats repeated squaring"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("report lacks %q", want)
		}
	}

	c := claim(t, experiments.JudgeFile(f))
	t.Logf("%s: %s; ours %s", c.ID, c.VerdictText(), c.Ours)
	if c.Verdict != experiments.Indicative || !strings.Contains(c.Reason, "at quick scale") {
		t.Errorf("claim at quick scale: %s (%s), want indicative", c.Verdict, c.Reason)
	}
	if !strings.Contains(c.Text, "Tolerance: a factor of 3") || c.PaperFigure != "9.00x at n = 512" {
		t.Errorf("claim text %q, figure %q: want the tolerance and the paper's 9x", c.Text, c.PaperFigure)
	}
}

// claim is the example's claim among claims.
func claim(t *testing.T, claims []experiments.Claim) experiments.Claim {
	t.Helper()
	for _, c := range claims {
		if c.ID == widest.SpeedupID {
			return c
		}
	}
	t.Fatalf("no claim %s among %d", widest.SpeedupID, len(claims))
	return experiments.Claim{}
}

// TestClaimRule: at the paper's size the rule scores, reproduced where
// squaring takes about log2 n times Floyd–Warshall's time and not
// reproduced where it does not; with no records, not run.
func TestClaimRule(t *testing.T) {
	at512 := func(slow, fast float64) []bench.Record {
		p := experimentstest.N(512)
		return []bench.Record{
			experimentstest.Mk(widest.Exp, "cpu/paper", p, experimentstest.Phases("total", slow), nil),
			experimentstest.Mk(widest.Exp, "cpu/fast", p, experimentstest.Phases("total", fast), nil),
		}
	}
	for _, tc := range []struct {
		name string
		recs []bench.Record
		want experiments.Verdict
	}{
		{"9x", at512(90, 10), experiments.Reproduced},
		{"4x, within 3x of 9x", at512(40, 10), experiments.Reproduced},
		{"1x", at512(10, 10), experiments.NotReproduced},
		{"30x", at512(300, 10), experiments.NotReproduced},
		{"no records", nil, experiments.NotRun},
	} {
		// One sample a cell: at 1% noise the rule's verdict settles (the
		// settle rule is tested in experiments and runner).
		if c := claim(t, experiments.JudgeNoise(tc.recs, experiments.Paper, bench.ProtocolVersion, 0.01)); c.Verdict != tc.want {
			t.Errorf("%s: %s (%s; %s), want %s", tc.name, c.Verdict, c.Ours, c.Reason, tc.want)
		}
	}
}
