//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/internal/stats"
)

// The battery of issue 26: every solve and gen command on bad inputs
// (testdata/bad, one file per defect) and on outputs that must not be
// clobbered. Each case checks the exit status, that the message names the
// file at fault (and says what its words should), that a pre-existing
// --out is byte for byte what it was, and that nothing else is left in its
// folder.

// precious is what a pre-existing output holds before every case.
const precious = "precious: never to be clobbered\n"

// badCase is one command on one bad input.
type badCase struct {
	name string
	// args, with {in} replaced by in's path and {out} by the output's.
	args []string
	in   string // testdata/bad/... ("" for none)
	code int
	want []string // stderr must hold each (besides in's path)
	not  []string // and none of these
	// noFile: the message need not name the input (a refusal before the
	// input is read).
	noFile bool
}

func badInputCases() []badCase {
	lap := func(name string, code int, want ...string) badCase {
		return badCase{name: "solve lap " + name, args: []string{"solve", "lap", "--in", "{in}"}, in: "testdata/bad/lap/" + name, code: code, want: want}
	}
	batch := func(name string, want ...string) badCase {
		return badCase{name: "solve lap --batch " + name, args: []string{"solve", "lap", "--batch", "{in}", "--out", "{out}"}, in: "testdata/bad/lapbatch/" + name, code: 1,
			want: want, not: []string{"Matrix Market"}}
	}
	kleene := func(name string, want ...string) badCase {
		return badCase{name: "solve kleene " + name, args: []string{"solve", "kleene", "--in", "{in}", "--out", "{out}"}, in: "testdata/bad/kleene/" + name, code: 1, want: want}
	}
	apsp := func(name string, want ...string) badCase {
		return badCase{name: "solve apsp " + name, args: []string{"solve", "apsp", "--in", "{in}", "--out", "{out}"}, in: "testdata/bad/apsp/" + name, code: 1, want: want}
	}
	treefix := func(name string, extra []string, want ...string) badCase {
		args := append([]string{"solve", "treefix", "--op", "rootfix", "--in", "{in}", "--out", "{out}"}, extra...)
		return badCase{name: "solve treefix " + name, args: args, in: "testdata/bad/treefix/" + name, code: 1, want: want}
	}
	results := func(cmd, name string, want ...string) badCase {
		args := []string{cmd, "{in}"}
		if cmd == "compare" {
			args = append(args, "testdata/good/run.json")
		}
		if cmd == "export" {
			args = []string{"export", "--benchfmt", "{in}", "--out", "{out}"}
		}
		return badCase{name: cmd + " " + name, args: args, in: "testdata/bad/results/" + name, code: 1, want: want}
	}
	return []badCase{
		lap("letters.csv", 1, ":2:", `"x"`),
		lap("ragged.csv", 1, ":2:", "ragged"),
		lap("nan.csv", 1, ":2:", "NaN"),
		lap("minus-inf.csv", 1, ":2:", "-inf", "forbidden"),
		lap("int64.csv", 1, ":1:", "does not fit in int64"),
		lap("sum-overflow.csv", 1, ":2:", "exceeds"),
		lap("float-overflow.csv", 1, ":1:", "exceeds"), // was json: invalid number literal "+Inf", naming no file
		lap("rows.csv", 1, ":3:", "more rows than columns"),
		lap("empty.csv", 1, "empty"),
		lap("infeasible.csv", 1, "infeasible"),
		lap("short.mtx", 1, ":6:", "file ends"),
		lap("coordinate.mtx", 1, ":1:", "dense array"),
		// Without a GPU a CUDA solve says so before it reads its input (the
		// int32 refusal itself is impls/cuda/lap's TestArgumentChecks); with
		// one, the refusal names int32.
		{name: "solve lap cuda/paper beyond int32", args: []string{"solve", "lap", "--in", "{in}", "--impl", "cuda/paper"}, in: "testdata/bad/lap/beyond-int32.csv", code: 1,
			want: []string{"cuda/paper"}, not: []string{"int64", "cuda/paper: cuda/paper", "CUDA unavailable: CUDA unavailable"}, noFile: true},

		batch("header.txt", ":1:", "lapbatch COUNT ROWS COLS"),
		batch("ragged.txt", ":4:", "problem 2"),
		batch("float-overflow.txt", ":5:", "exceeds"), // was +Inf written as the cost, exit 0
		batch("short.txt", "file ends"),
		batch("infeasible.txt", "problem 2", "infeasible"),
		batch("minus-inf.txt", ":2:", "-inf"),

		kleene("text.mtx", ":1:", "%%MatrixMarket"),
		kleene("cycle.mtx", "cycle"),
		kleene("plus-inf.mtx", ":3:", "+Inf"),
		kleene("underflow.mtx", "below -FLT_MAX"), // was read as "no path", exit 0
		kleene("overflow.mtx", "above FLT_MAX"),   // was a message naming no file
		kleene("rect.mtx", "square"),
		kleene("huge-size.mtx", ":2:", "larger than 2147483647"),

		apsp("text.mtx", ":1:", "%%MatrixMarket"),
		apsp("range.mtx", ":3:", "row 3 not in 1..2"),
		apsp("duplicate.mtx", ":4:", "first at line 3"),
		apsp("rect.mtx", "not square"),
		// Issue 56, item 1: path sums beyond float64 were +inf ("no path")
		// or -inf ("a negative cycle"), with "check: ok".
		apsp("sum-overflow.mtx", ":4:", "exceeds", "the bound for 3 vertices"),
		apsp("sum-overflow-negative.mtx", ":4:", "exceeds", "the bound for 3 vertices"),
		{name: "solve apsp max-plus cpu/sgje sum-overflow.mtx", args: []string{"solve", "apsp", "--semiring", "max-plus", "--impl", "cpu/sgje", "--in", "{in}", "--out", "{out}"},
			in: "testdata/bad/apsp/sum-overflow.mtx", code: 1, want: []string{":4:", "exceeds"}},
		// Issue 56, item 2: integers float64 cannot hold were rounded.
		apsp("int-2p53.mtx", ":4:", "integer 9007199254740993 is not exactly representable in float64"),
		apsp("int-2p63.mtx", ":4:", "integer 9223372036854775807 is not exactly representable in float64"),

		treefix("two-roots.txt", nil, ":2:", "second root"),
		treefix("cycle.txt", nil, "cycle"),
		treefix("int64.txt", nil, ":1:", "does not fit in int64"), // was read as a float64, exit 0
		treefix("sum-overflow.txt", nil, "overflow"),              // was data loss of --out
		treefix("parent.txt", nil, ":2:", "out of range"),
		treefix("float32-range.txt", []string{"--float32"}, ":1:", "beyond the float32 range"),
		treefix("fields.txt", nil, ":1:", "3 fields"),

		results("table", "negative.json", "record 1", "is negative"),
		results("table", "huge.json", "record 0", "exceeds"),
		results("compare", "median.json", "record 0", "median"),
		results("compare", "breakdown.json", "record 0", "breakdown"),
		results("table", "text.json", "not JSON"),
		results("export", "negative.json", "is negative"),

		// Headers checked first, at line 1, for every reader.
		results("table", "schema2-lines.jsonl", "line 1:", "schema 2", "semibench convert"), // was "line 2: data after the end"
		results("claims", "no-schema.jsonl", "line 1:", `no "schema"`),
		results("report", "no-header.jsonl", "line 1:", "no header line"), // was json: unknown field "experiment", no line
		results("claims", "one-record.jsonl", "line 1:", "no header"),     // one record alone was "a JSON object without ...", no line
		results("export", "schema4.jsonl", "line 1", "schema version 4", "newer semibench"),
		results("compare", "no-machine.jsonl", "line 1", "machine's label"),   // was accepted
		results("claims", "no-scale.jsonl", "line 1", "lacks the scale"),      // was judged as paper scale
		results("report", "no-start.jsonl", "line 1", "lacks the start time"), // was "Started 0001-01-01"
		// Issue 56, item 11: were read as sound ("Scale huge", "semibench , go1.26.8").
		results("report", "scale-huge.jsonl", "line 1", `scale "huge" is none of semibench's (quick, paper, large)`),
		results("claims", "scale-huge.jsonl", "line 1", `scale "huge"`), // was judged as paper scale
		results("report", "no-semibench.jsonl", "line 1", "lacks the build"),
		results("table", "empty-semibench.jsonl", "line 1", "lacks the build"),
		// Records no table places are named, by line, with why.
		{name: "table foreign.jsonl", args: []string{"table", "{in}"}, in: "testdata/bad/results/foreign.jsonl", code: 0, // were dropped in silence
			want: []string{"line 3:", `"kleene/table9"`, "line 4:", `no implementation "cpu/quantum"`, "line 5:", "no case with n=12345"}, not: []string{"line 2:"}},
		{name: "claims foreign.jsonl", args: []string{"claims", "{in}"}, in: "testdata/bad/results/foreign.jsonl", code: 0,
			want: []string{"line 3:", "line 4:", "line 5:", "left out"}},
		{name: "export foreign.jsonl", args: []string{"export", "{in}", "--out", "-"}, in: "testdata/bad/results/foreign.jsonl", code: 0,
			want: []string{"line 3:", "line 4:", "line 5:", "exported as it is"}},
		// Issue 56, item 19: an implementation's intermediate sums overflow
		// on a sound tree (every vertex's sum fits): not blamed on the input
		// (it said "bad treefix input" and "became NaN"), and the
		// implementations that do the tree are named.
		{name: "solve treefix leaffix cpu/vectorial cancelling-children.txt", args: []string{"solve", "treefix", "--op", "leaffix", "--impl", "cpu/vectorial", "--in", "{in}", "--out", "{out}"},
			in: "testdata/bad/treefix/cancelling-children.txt", code: 1, want: []string{":6:", "an intermediate sum overflows", "vertex 3", "-1.5e+308, fits", "cpu/sequential does it"},
			not: []string{"bad treefix input"}},
		{name: "solve treefix leaffix cpu/sequential cancelling-children-reversed.txt", args: []string{"solve", "treefix", "--op", "leaffix", "--impl", "cpu/sequential", "--in", "{in}", "--out", "{out}"},
			in: "testdata/bad/treefix/cancelling-children-reversed.txt", code: 1, want: []string{":2:", "an intermediate sum overflows", "vertex 0", "5e+307, fits", "cpu/parallel, cpu/vectorial and cpu/vectorial-compensated do it: --impl cpu/parallel"},
			not: []string{"bad treefix input"}},
		{name: "solve treefix leaffix cpu/sequential cancelling-children.txt", args: []string{"solve", "treefix", "--op", "leaffix", "--in", "{in}", "--out", "-"},
			in: "testdata/bad/treefix/cancelling-children.txt", code: 0, want: []string{"check: ok"}, noFile: true},
		// A valid tree whose small subtree late in the Euler tour cancels two
		// large prefixes: both vectorial Leaffix implementations solve it
		// (were: their check failed, nothing written).
		{name: "solve treefix leaffix cpu/vectorial", args: []string{"solve", "treefix", "--op", "leaffix", "--impl", "cpu/vectorial", "--in", "{in}", "--out", "-"},
			in: "testdata/bad/treefix/leaffix-cancellation.txt", code: 0, want: []string{"check: ok"}, noFile: true},
		{name: "solve treefix leaffix cpu/vectorial-compensated", args: []string{"solve", "treefix", "--op", "leaffix", "--impl", "cpu/vectorial-compensated", "--in", "{in}", "--out", "-"},
			in: "testdata/bad/treefix/leaffix-cancellation.txt", code: 0, want: []string{"check: ok"}, noFile: true},
	}
}

// runCase runs c in a fresh folder whose output holds precious, and checks
// it.
func runCase(t *testing.T, ctx context.Context, c badCase, out string) {
	t.Helper()
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.NewReplacer("{in}", c.in, "{out}", out).Replace(a)
	}
	code, stdout, stderr := captureCtx(t, ctx, args...)
	if code != c.code {
		t.Errorf("semibench %s: exit %d, want %d; stderr %q", strings.Join(args, " "), code, c.code, stderr)
	}
	names := []string{c.in}
	if c.noFile {
		names = nil
	}
	for _, w := range append(names, c.want...) {
		if w != "" && !strings.Contains(stderr, w) {
			t.Errorf("semibench %s: stderr %q lacks %q", strings.Join(args, " "), stderr, w)
		}
	}
	for _, w := range c.not {
		if strings.Contains(stderr, w) {
			t.Errorf("semibench %s: stderr %q holds %q", strings.Join(args, " "), stderr, w)
		}
	}
	if c.code != 0 && stdout != "" && !slicesContains(args, "--out") {
		t.Errorf("semibench %s: a failure wrote %q to standard output", strings.Join(args, " "), stdout)
	}
}

func slicesContains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// checkUntouched checks that out still holds precious and that its folder
// holds nothing else.
func checkUntouched(t *testing.T, what, out string) {
	t.Helper()
	if b, err := os.ReadFile(out); err != nil || string(b) != precious {
		t.Errorf("%s: the existing --out now holds %q (%v)", what, b, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s: the output's folder holds %v, want the output alone", what, names)
	}
}

// TestBatteryBadInputs runs every case of badInputCases with a pre-existing
// --out.
func TestBatteryBadInputs(t *testing.T) {
	for _, c := range badInputCases() {
		out := filepath.Join(t.TempDir(), "out.txt")
		if err := os.WriteFile(out, []byte(precious), 0o644); err != nil {
			t.Fatal(err)
		}
		runCase(t, context.Background(), c, out)
		checkUntouched(t, c.name, out)
	}
}

// writers are the commands that write a file, each with valid inputs.
var writers = []struct {
	name string
	args []string // {out} is the output
}{
	{"gen lap", []string{"gen", "lap", "--n", "3", "--out", "{out}"}},
	{"gen lap --count", []string{"gen", "lap", "--n", "3", "--count", "2", "--out", "{out}"}},
	{"gen dag", []string{"gen", "dag", "--n", "4", "--out", "{out}"}},
	{"gen apsp", []string{"gen", "apsp", "--n", "4", "--out", "{out}"}},
	{"gen tree", []string{"gen", "tree", "--shape", "star", "--n", "4", "--out", "{out}"}},
	{"gen domination", []string{"gen", "domination", "--m", "2", "--out", "{out}"}},
	{"solve kleene", []string{"solve", "kleene", "--in", "testdata/good/dag.mtx", "--out", "{out}"}},
	{"solve apsp", []string{"solve", "apsp", "--in", "testdata/good/apsp.mtx", "--out", "{out}"}},
	{"solve treefix", []string{"solve", "treefix", "--op", "leaffix", "--in", "testdata/good/tree.txt", "--out", "{out}"}},
	{"solve lap --batch", []string{"solve", "lap", "--batch", "testdata/good/batch.txt", "--out", "{out}"}},
	{"export", []string{"export", "--benchfmt", "testdata/good/run.json", "--out", "{out}"}},
}

// TestBatteryOutputResultFile (issue 56, item 3): no command that writes a
// file replaces a result file, the one it reads or another: export
// --benchfmt X --out X and report Y --out Y replaced theirs, and every
// writer replaced another. Each is refused as bad usage, and the file is
// left byte for byte.
func TestBatteryOutputResultFile(t *testing.T) {
	run, err := os.ReadFile("testdata/runs/noise-kleene.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, other := filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "other.jsonl")
	mtxIn := filepath.Join(dir, "a.mtx")
	good, _ := os.ReadFile("testdata/good/apsp.mtx")
	figure := filepath.Join(dir, "plots", "kleene-table3-total.svg") // a name plot writes
	os.MkdirAll(filepath.Dir(figure), 0o755)
	files := map[string][]byte{in: run, other: run, mtxIn: good, figure: run}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"export", "--benchfmt", in, "--out", in}, "is the input"},
		{[]string{"export", in, "--out", other}, "holds a semibench result file"},
		{[]string{"report", in, "--out", in}, "is the input"},
		{[]string{"report", in, "--out", other}, "holds a semibench result file"},
		{[]string{"plot", in, "--dir", filepath.Dir(figure)}, "holds a semibench result file"},
		{[]string{"gen", "lap", "--n", "3", "--out", other}, "holds a semibench result file"},
		{[]string{"solve", "apsp", "--in", mtxIn, "--out", other}, "holds a semibench result file"},
		{[]string{"solve", "apsp", "--in", mtxIn, "--out", mtxIn}, "is the input"},
	}
	for _, c := range cases {
		for p, b := range files {
			os.WriteFile(p, b, 0o644)
		}
		code, _, stderr := capture(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("semibench %s: exit %d, stderr %q; want 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
		for p, b := range files {
			if now, _ := os.ReadFile(p); !bytes.Equal(now, b) {
				t.Errorf("semibench %s replaced %s", strings.Join(c.args, " "), p)
			}
		}
	}
}

// TestBatteryOutputs: every command that writes a file refuses a folder
// and a FIFO at --out (unchanged), writes through a symlink (the link
// stays), leaves an existing file as it was when interrupted, and leaves
// nothing else in the folder.
func TestBatteryOutputs(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, w := range writers {
		sub := func(out string) []string {
			args := make([]string, len(w.args))
			for i, a := range w.args {
				args[i] = strings.ReplaceAll(a, "{out}", out)
			}
			return args
		}
		// A folder and a FIFO are refused, and stay what they were.
		dir := t.TempDir()
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Fatal(err)
		}
		for out, kind := range map[string]string{dir: "is a directory", fifo: "is a FIFO"} {
			code, _, stderr := capture(t, sub(out)...)
			if code != 1 || !strings.Contains(stderr, out) || !strings.Contains(stderr, kind) {
				t.Errorf("%s --out %s: exit %d, stderr %q; want 1 and %q", w.name, kind, code, stderr, kind)
			}
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("%s: the FIFO was replaced", w.name)
		}
		// A character device (a /dev/null of our own, where we may make
		// one) is refused and stays.
		dev := filepath.Join(dir, "null")
		if syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) == nil {
			code, _, stderr := capture(t, sub(dev)...)
			if code != 1 || !strings.Contains(stderr, "is a character device") {
				t.Errorf("%s --out DEVICE: exit %d, stderr %q", w.name, code, stderr)
			}
			if st, err := os.Lstat(dev); err != nil || st.Mode()&os.ModeCharDevice == 0 {
				t.Errorf("%s: the character device was replaced", w.name)
			}
		}
		// Interrupted: the existing file is left.
		out := filepath.Join(t.TempDir(), "out.txt")
		os.WriteFile(out, []byte(precious), 0o644)
		code, _, stderr := captureCtx(t, cancelled, sub(out)...)
		if code != 1 || !strings.Contains(stderr, "interrupted") {
			t.Errorf("%s interrupted: exit %d, stderr %q", w.name, code, stderr)
		}
		checkUntouched(t, w.name+" interrupted", out)
		// A symlink is written through.
		dir = t.TempDir()
		real, link := filepath.Join(dir, "real.txt"), filepath.Join(dir, "link.txt")
		os.WriteFile(real, []byte(precious), 0o644)
		os.Symlink("real.txt", link)
		if code, _, stderr := capture(t, sub(link)...); code != 0 {
			t.Errorf("%s --out LINK: exit %d, stderr %q", w.name, code, stderr)
		}
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: the symlink was replaced", w.name)
		}
		if b, _ := os.ReadFile(real); len(b) == 0 || string(b) == precious {
			t.Errorf("%s: the link's file holds %q, want the new output", w.name, b)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 2 {
			t.Errorf("%s: %d entries beside the link, want the link and its file", w.name, len(entries))
		}
	}
}

// TestBatteryMore: the defects that are not a bad input file: a run of
// another scale than its file, --reps without bound, a result file that
// never ends, a full standard output, an unknown peers parameter, a tree
// comment longer than 64 KiB, a data line longer than that.
func TestBatteryMore(t *testing.T) {
	dir := t.TempDir()
	paperFile := filepath.Join(dir, "paper.json")
	app, err := bench.NewAppender(paperFile, &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(), Machine: currentMachine(), Scale: "paper", Started: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	app.Close()
	before, _ := os.ReadFile(paperFile)
	longComment := filepath.Join(dir, "comment.txt")
	os.WriteFile(longComment, []byte("# "+strings.Repeat("c", 100<<10)+"\n-1 1\n0 2\n"), 0o644)
	longLine := filepath.Join(dir, "line.txt")
	os.WriteFile(longLine, []byte("-1 1\n0 "+strings.Repeat("1", 100<<10)+"\n"), 0o644)
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"run", "kleene/table2", "--scale", "quick", "--out", paperFile}, 2, []string{paperFile, "scale paper", "scale quick"}},
		{[]string{"run", "kleene/table2", "--reps", "1000000000000"}, 2, []string{"--reps must be in 1..1000"}},
		{[]string{"table", "/dev/zero"}, 1, []string{"/dev/zero", "not JSON"}},
		{[]string{"compare", "/dev/zero", "testdata/good/run.json"}, 1, []string{"/dev/zero", "not JSON"}},
		{[]string{"peers", "record", "--out", filepath.Join(dir, "p.json"), "--experiment", "hungarian/table1", "--impl", "peer/hylac", "--param", "bogus=1", "--phase", "total=1"},
			2, []string{`no parameter "bogus"`, "n, range"}},
		// Issue 56, item 15: was "not a positive number".
		{[]string{"peers", "record", "--out", filepath.Join(dir, "p.json"), "--experiment", "hungarian/table1", "--impl", "peer/hylac", "--param", "n=64", "--param", "range=n", "--phase", "total=1e308"},
			2, []string{`sample "1e308" ms exceeds 1e+12 ms`}},
		{[]string{"solve", "treefix", "--op", "rootfix", "--in", longComment}, 0, nil},
		{[]string{"solve", "treefix", "--op", "rootfix", "--in", longLine}, 1, []string{longLine + ":2:", "line longer than"}},
		{[]string{"gen", "lap", "--n", "3", "--out", dir}, 1, []string{dir, "is a directory"}},
	}
	for _, c := range cases {
		code, _, stderr := capture(t, c.args...)
		if code != c.code {
			t.Errorf("semibench %s: exit %d, want %d; stderr %q", strings.Join(c.args, " "), code, c.code, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("semibench %s: stderr %q lacks %q", strings.Join(c.args, " "), stderr, w)
			}
		}
	}
	// /dev/stdout is standard output, written to, never replaced.
	for _, name := range []string{"-", "/dev/stdout"} {
		code, stdout, stderr := capture(t, "gen", "lap", "--n", "2", "--out", name)
		if code != 0 || strings.Count(stdout, "\n") != 2 {
			t.Errorf("gen lap --out %s: exit %d, stdout %q, stderr %q", name, code, stdout, stderr)
		}
	}
	if st, err := os.Lstat("/dev/stdout"); err == nil && st.Mode()&os.ModeSymlink == 0 && st.Mode().IsRegular() {
		t.Errorf("/dev/stdout became a regular file")
	}
	if after, _ := os.ReadFile(paperFile); !bytes.Equal(before, after) {
		t.Errorf("the paper-scale file was changed by a quick run")
	}
	// A full standard output is a failure.
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	for _, args := range [][]string{{"info"}, {"list"}, {"solve", "lap", "--in", "testdata/good/lap.csv"}, {"gen", "lap", "--n", "3", "--out", "-"}} {
		old := os.Stdout
		os.Stdout = full
		var stderr bytes.Buffer
		code := dispatch(context.Background(), args, full, &stderr)
		os.Stdout = old
		if code != 1 || !strings.Contains(stderr.String(), "standard output") {
			t.Errorf("semibench %s to a full standard output: exit %d, stderr %q", strings.Join(args, " "), code, stderr.String())
		}
	}
}

// The battery of the readers: the commands that read result files, and
// the seam between runs and the files they leave.

// TestBatteryReadersInterrupted: every command that reads result files,
// reading a slow pipe, stops within a second of SIGINT, exit 1, saying
// "interrupted", and writes nothing (they read on, for as long as the
// pipe stayed open, and report and convert wrote their outputs).
func TestBatteryReadersInterrupted(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("testdata/runs/amd-epyc-kleene-paper.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.txt")
	cases := [][]string{
		{"table", "{in}"}, {"claims", "{in}"}, {"report", "{in}"}, {"plot", "{in}", "--dir", filepath.Join(dir, "plots")},
		{"convert", "{in}"}, {"compare", "{in}", "testdata/good/run.json"}, {"export", "{in}", "--out", out},
	}
	for i, c := range cases {
		fifo := filepath.Join(dir, fmt.Sprintf("in%d.json", i))
		if err := syscall.Mkfifo(fifo, 0o644); err != nil {
			t.Skip("no FIFOs here")
		}
		// The writer holds the pipe open (read and write: its open never
		// waits) and sends the first half of a result file, then nothing.
		w, err := os.OpenFile(fifo, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(good[:len(good)/2])
		os.WriteFile(out, []byte(precious), 0o644)
		args := make([]string, len(c))
		for k, a := range c {
			args[k] = strings.ReplaceAll(a, "{in}", fifo)
		}
		cmd, stderr := startCLI(t, false, args...)
		time.Sleep(400 * time.Millisecond)
		t0 := time.Now()
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(3 * time.Second):
			w.Close() // let it end
			err = <-done
			t.Errorf("semibench %s: still reading 3 s after SIGINT", c[0])
		}
		w.Close()
		took := time.Since(t0)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "interrupted") || took > 1500*time.Millisecond {
			t.Errorf("semibench %s on a slow pipe, interrupted: %v after %v, stderr %q; want exit 1 within a second, \"interrupted\"", c[0], err, took, stderr.String())
		}
		for _, written := range []string{strings.TrimSuffix(fifo, ".json") + ".md", strings.TrimSuffix(fifo, ".json") + ".plots",
			strings.TrimSuffix(fifo, ".json") + ".jsonl", filepath.Join(dir, "plots")} {
			if _, err := os.Stat(written); err == nil {
				t.Errorf("semibench %s, interrupted, wrote %s", c[0], written)
			}
		}
		os.Remove(fifo)
		checkUntouched(t, "semibench "+c[0]+" interrupted", out)
	}
}

// runFile writes a result file of one skipped kleene/table2 cell whose
// header is this binary's run at quick scale on this machine, changed by
// edit.
func runFile(t *testing.T, path string, edit func(h *bench.File)) {
	t.Helper()
	h := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(), Machine: currentMachine(), Scale: "quick", Started: time.Now().UTC()}
	edit(h)
	h.Records = []bench.Record{{Experiment: "kleene/table2", Impl: "cpu/paper", Params: bench.Params{{Name: "n", Value: "60"}, {Name: "weights", Value: "normal"}},
		Status: bench.StatusSkipped, EstimateMS: 1}}
	if err := bench.WriteFile(path, h); err != nil {
		t.Fatal(err)
	}
}

// TestBatteryRunFiles: one run per file. An append, with or without
// --resume, is refused for another commit (a binary without one says "not
// stamped"), another machine of the same label, or another scale, in the
// same words; the notes line an append adds names the build; --memory is
// parsed strictly; an interrupted run says so once.
func TestBatteryRunFiles(t *testing.T) {
	dir := t.TempDir()
	quick := []string{"run", "kleene/table2", "--scale", "quick", "--impl", "cpu/paper", "--where", "n=60", "--reps", "1", "--warmup", "0"}
	other := filepath.Join(dir, "other-commit.jsonl")
	runFile(t, other, func(h *bench.File) { h.Semibench = bench.Build{Version: bench.Version, Commit: "abc1234"} })
	bigger := filepath.Join(dir, "other-machine.jsonl")
	runFile(t, bigger, func(h *bench.File) { h.Machine.CPU, h.Machine.Cores = "Other CPU", 64 })
	paper := filepath.Join(dir, "paper.jsonl")
	runFile(t, paper, func(h *bench.File) { h.Scale = "paper" })
	build := bench.CurrentBuild()
	for _, c := range []struct {
		file string
		want []string
	}{
		{other, []string{"commit abc1234", build.String()}}, // was accepted by a plain append
		{bigger, []string{"Other CPU", "64 cores"}},         // was matched by label alone
		{paper, []string{"scale paper", "scale quick"}},
	} {
		before, _ := os.ReadFile(c.file)
		for _, resume := range []bool{false, true} {
			args := append(slices.Clone(quick), "--out", c.file)
			if resume {
				args = append(args, "--resume")
			}
			code, _, stderr := capture(t, args...)
			if code != 2 || !strings.Contains(stderr, c.file) {
				t.Errorf("semibench %s: exit %d, stderr %q; want 2 naming the file", strings.Join(args, " "), code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("semibench %s: stderr %q lacks %q", strings.Join(args, " "), stderr, w)
				}
			}
		}
		if after, _ := os.ReadFile(c.file); !bytes.Equal(before, after) {
			t.Errorf("%s was changed by a refused append", c.file)
		}
	}
	if build.Commit == "" && !strings.Contains(build.String(), "not stamped") { // was "this binary is : ..."
		t.Errorf("a binary without a commit is named %q", build.String())
	}
	// The same binary appends, and resumes, its own file; the notes line
	// names its build.
	own := filepath.Join(dir, "own.jsonl")
	for _, extra := range [][]string{nil, nil, {"--resume"}} {
		if code, _, stderr := capture(t, append(append(slices.Clone(quick), "--out", own), extra...)...); code != 0 {
			t.Fatalf("run --out %s %v: exit %d, %s", own, extra, code, stderr)
		}
	}
	f, err := bench.ReadFile(own)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Notes) == 0 || !strings.Contains(strings.Join(f.Notes, "\n"), build.String()) {
		t.Errorf("the notes of an appended file %q do not name the build %q", f.Notes, build.String())
	}
	// --memory: NaN, infinities, negatives, and sizes at or below what the
	// process holds are bad usage (were 8 EiB, or "0.0 GiB" and every cell
	// run).
	for _, m := range []string{"NaNGiB", "InfGiB", "-1GiB", "1B", "1", "1KiB", "0"} {
		code, _, stderr := capture(t, append(slices.Clone(quick), "--out", filepath.Join(dir, "m.jsonl"), "--memory", m)...)
		if code != 2 || !strings.Contains(stderr, "--memory") {
			t.Errorf("--memory %s: exit %d, stderr %q; want 2", m, code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "m.jsonl")); err == nil {
		t.Errorf("a refused --memory wrote a result file")
	}
}

// TestBatteryRunSeeds (issue 56, item 4): an append or a --resume of
// another --seed is refused, and the file left as it was (they appended
// the other seed's records, which tables then read as one run); the same
// seed appends, and its notes line names the seed.
func TestBatteryRunSeeds(t *testing.T) {
	out := filepath.Join(t.TempDir(), "seed1.jsonl")
	quick := []string{"run", "kleene/table2", "--scale", "quick", "--impl", "cpu/paper", "--reps", "1", "--warmup", "0", "--out", out}
	if code, _, stderr := capture(t, append(slices.Clone(quick), "--where", "n=60", "--seed", "1")...); code != 0 {
		t.Fatalf("the seed-1 run: exit %d, %s", code, stderr)
	}
	before, _ := os.ReadFile(out)
	for _, extra := range [][]string{{"--where", "n=60"}, {"--where", "n=60|120", "--resume"}} {
		args := append(append(slices.Clone(quick), extra...), "--seed", "2")
		code, _, stderr := capture(t, args...)
		if code != 2 || !strings.Contains(stderr, "seed 1") || !strings.Contains(stderr, "seed 2") || !strings.Contains(stderr, out) {
			t.Errorf("semibench %s: exit %d, stderr %q; want 2, naming the file and both seeds", strings.Join(args, " "), code, stderr)
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
			t.Errorf("semibench %s changed the seed-1 file", strings.Join(args, " "))
		}
	}
	if code, _, stderr := capture(t, append(slices.Clone(quick), "--where", "n=60", "--seed", "1")...); code != 0 {
		t.Fatalf("a second seed-1 run: exit %d, %s", code, stderr)
	}
	if f, err := bench.ReadFile(out); err != nil || !strings.Contains(strings.Join(f.Notes, "\n"), "seed 1") {
		t.Errorf("the notes of a seed-1 append do not name the seed (%v)", err)
	}
}

// TestBatteryResumeFIFO (issue 56, item 5): run --resume --out FIFO is
// refused at once, as without --resume (it blocked in the open, deaf to
// SIGINT and SIGTERM).
func TestBatteryResumeFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here")
	}
	cmd, stderr := startCLI(t, false, "run", "kleene/table2", "--scale", "quick", "--impl", "cpu/paper", "--where", "n=60", "--out", fifo, "--resume")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(3 * time.Second):
		cmd.Process.Signal(syscall.SIGINT)
		select {
		case err = <-done:
			t.Errorf("run --resume --out FIFO waited 3 s, until SIGINT")
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			err = <-done
			t.Errorf("run --resume --out FIFO waited 3 s, and 2 s more after SIGINT")
		}
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), fifo+" is a FIFO") {
		t.Errorf("run --resume --out FIFO: %v, stderr %q; want exit 2 naming the FIFO", err, stderr.String())
	}
}

// TestBatteryInterruptedRunSaysOnce: an interrupted run's "interrupted;
// N finished record(s) kept" comes once (it came twice).
func TestBatteryInterruptedRunSaysOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs paper-scale cells for a second")
	}
	out := filepath.Join(t.TempDir(), "run.jsonl")
	cmd, stderr := startCLI(t, false, "run", "kleene/table2", "--scale", "paper", "--impl", "cpu/paper", "--out", out)
	time.Sleep(1500 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if n := strings.Count(stderr.String(), "finished record(s) kept"); n != 1 {
		t.Errorf("an interrupted run said so %d times: %q", n, stderr.String())
	}
}

// TestBatteryMergeIdentity (issue 56, item 6): table --merge, plot
// --merge and claims join only the files an append would join: two
// builds are refused unless --across-builds says so on purpose, and one
// label on another CPU and core count always (bench.Merge compared labels
// only, and claims joined two builds).
func TestBatteryMergeIdentity(t *testing.T) {
	dir := t.TempDir()
	a, build2, bigger := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "build2.jsonl"), filepath.Join(dir, "bigger.jsonl")
	runFile(t, a, func(h *bench.File) {})
	runFile(t, build2, func(h *bench.File) { h.Semibench = bench.Build{Version: bench.Version, Commit: "abc1234"} })
	runFile(t, bigger, func(h *bench.File) { h.Machine.CPU, h.Machine.Cores = "Other CPU", 64 })
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"table", "--merge", a, build2}, 2, "--across-builds"},
		{[]string{"plot", "--merge", "--dir", filepath.Join(dir, "plots"), a, build2}, 2, "--across-builds"},
		{[]string{"claims", a, build2}, 2, "--across-builds"},
		{[]string{"table", "--merge", a, bigger}, 2, "64 cores"},
		{[]string{"table", "--merge", "--across-builds", a, bigger}, 2, "64 cores"},
		{[]string{"table", "--merge", "--across-builds", a, build2}, 0, ""},
		{[]string{"claims", "--across-builds", a, build2}, 0, ""},
	} {
		code, _, stderr := capture(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("semibench %s: exit %d, stderr %q; want %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
		if c.code != 0 && !strings.Contains(stderr, "abc1234") && !strings.Contains(stderr, "Other CPU") {
			t.Errorf("semibench %s: stderr %q names neither build nor machine", strings.Join(c.args, " "), stderr)
		}
	}
}

// TestBatteryClaimsPeers (issue 56, item 17): claims RUN PEERS reads the
// peers file with the run, as table --merge does (it refused: "p.jsonl a
// -scale one"), and a peers file alone is refused saying how it is read.
func TestBatteryClaimsPeers(t *testing.T) {
	dir := t.TempDir()
	run, peers := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "p.jsonl")
	runFile(t, run, func(h *bench.File) {})
	if code, _, stderr := capture(t, "peers", "record", "--out", peers, "--experiment", "hungarian/table1", "--impl", "peer/hylac",
		"--param", "n=64", "--param", "range=n", "--phase", "total=5"); code != 0 {
		t.Fatalf("peers record: exit %d, %s", code, stderr)
	}
	for _, order := range [][]string{{run, peers}, {peers, run}} {
		code, stdout, stderr := capture(t, append([]string{"claims"}, order...)...)
		if code != 0 || !strings.Contains(stdout, "claims of the five papers") || strings.Contains(stderr, "-scale") {
			t.Errorf("claims %v: exit %d, stderr %q", order, code, stderr)
		}
	}
	code, _, stderr := capture(t, "claims", peers)
	if code != 2 || !strings.Contains(stderr, peers) || !strings.Contains(stderr, "claims RUN PEERS") {
		t.Errorf("claims PEERS: exit %d, stderr %q; want 2 saying how a peers file is read", code, stderr)
	}
}

// TestBatteryExportLatest (issue 56, item 7): export writes each cell
// once, from its latest record, as every table reads it: a refined cell's
// earlier record (1 sample) was exported beside its refinement (6), and
// benchstat counted 7. testdata/runs/refined-domination.jsonl is the
// header and lines 1024 and 1079 of e1a3885:results/amd-epyc/20261128-084532.jsonl.gz
// (domination/table1 cpu/paper m=10, refined).
func TestBatteryExportLatest(t *testing.T) {
	code, stdout, stderr := capture(t, "export", "testdata/runs/refined-domination.jsonl", "--out", "-")
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, stderr)
	}
	lines := map[string]int{}
	for _, l := range strings.Split(stdout, "\n") {
		if name, _, ok := strings.Cut(l, " "); ok && strings.HasPrefix(name, "Benchmark") {
			lines[name]++
		}
	}
	if len(lines) == 0 {
		t.Fatalf("export wrote no benchmark lines:\n%s", stdout)
	}
	for name, n := range lines {
		if n != 6 {
			t.Errorf("%s: %d lines, want the latest record's 6 samples", name, n)
		}
	}
}

// TestBatteryPeersNames (issue 56, item 8): peers record refuses a peer
// no table reads (peer/zzz was accepted, and every reader then left the
// record out without a word); such a record in a file is named as left
// out; a peers file read alone is refused saying how it is read (it
// printed nothing, exit 0).
func TestBatteryPeersNames(t *testing.T) {
	dir := t.TempDir()
	run, peers, zzz := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "p.jsonl"), filepath.Join(dir, "zzz.jsonl")
	runFile(t, run, func(h *bench.File) {})
	record := func(out, impl string) (int, string) {
		code, _, stderr := capture(t, "peers", "record", "--out", out, "--experiment", "hungarian/table1", "--impl", impl,
			"--param", "n=64", "--param", "range=n", "--phase", "total=5")
		return code, stderr
	}
	if code, stderr := record(zzz, "peer/zzz"); code != 2 || !strings.Contains(stderr, `"peer/zzz"`) || !strings.Contains(stderr, "peer/hylac") {
		t.Errorf("peers record --impl peer/zzz: exit %d, stderr %q; want 2 naming the peers read", code, stderr)
	}
	if _, err := os.Stat(zzz); err == nil {
		t.Errorf("a refused peers record wrote %s", zzz)
	}
	if code, stderr := record(peers, "peer/hylac"); code != 0 {
		t.Fatalf("peers record peer/hylac: exit %d, %s", code, stderr)
	}
	b, _ := os.ReadFile(peers)
	os.WriteFile(zzz, bytes.ReplaceAll(b, []byte(`"peer/hylac"`), []byte(`"peer/zzz"`)), 0o644)
	code, _, stderr := capture(t, "table", "--merge", run, zzz)
	if code != 0 || !strings.Contains(stderr, zzz+": line 2: left out") || !strings.Contains(stderr, `"peer/zzz"`) {
		t.Errorf("table --merge RUN with a peer/zzz record: exit %d, stderr %q; want the record named as left out", code, stderr)
	}
	code, stdout, stderr := capture(t, "table", peers)
	if code != 2 || !strings.Contains(stderr, "table --merge RUN "+peers) {
		t.Errorf("table PEERS: exit %d, stdout %q, stderr %q; want 2 saying table --merge RUN PEERS", code, stdout, stderr)
	}
}

// TestBatteryTruncatedGzip (issue 56, item 13): a gzipped result file cut
// short (testdata/bad/results/truncated.jsonl.gz: the first two thirds of
// testdata/runs/noise-kleene.jsonl gzipped) is read as a plain file cut
// short is, its whole records kept, the cut named as a truncated gzip
// stream (it was "unexpected EOF", exit 1, every record lost). The
// warning goes to the process's standard error: a process of its own.
func TestBatteryTruncatedGzip(t *testing.T) {
	in := "testdata/bad/results/truncated.jsonl.gz"
	for _, cmd := range []string{"table", "claims"} {
		c, stderr := startCLI(t, false, cmd, in)
		err := c.Wait()
		for _, w := range []string{in, "a truncated gzip stream", "line 7, the line it cuts", "the 4 whole record(s) before it are kept"} {
			if !strings.Contains(stderr.String(), w) {
				t.Errorf("semibench %s %s: stderr %q lacks %q", cmd, in, stderr.String(), w)
			}
		}
		if err != nil {
			t.Errorf("semibench %s %s: %v, want exit 0", cmd, in, err)
		}
	}
}

// TestBatterySlurmPolicyTrap (issue 56, item 18): scripts/test-slurm.sh's
// install removes the policy-rc.d it wrote however it ends, a Ctrl-C
// during apt-get included (it set its cleanup trap only after apt-get, so
// an interrupt left the file, and later package installs on the machine
// stopped starting their services). The install function runs alone, with
// a stand-in apt-get and SLURM_TEST_POLICY_RC pointing into a temporary
// folder.
func TestBatterySlurmPolicyTrap(t *testing.T) {
	script, err := os.ReadFile("../../scripts/test-slurm.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(script, []byte("SLURM_TEST_POLICY_RC")) {
		t.Fatal("scripts/test-slurm.sh writes the system's policy-rc.d (no SLURM_TEST_POLICY_RC): its install cannot be tested here")
	}
	install := regexp.MustCompile(`(?ms)^install\(\) \{\n.*?^\}\n`).Find(script)
	if install == nil {
		t.Fatal("scripts/test-slurm.sh has no install function")
	}
	for _, c := range []struct {
		name, aptGet string
		interrupt    bool
		code         int
	}{
		{"interrupted", "echo started >\"$MARK\"; exec /bin/sleep 30", true, 130},
		{"installed", "echo started >\"$MARK\"", false, 0},
		{"failed", "echo started >\"$MARK\"; exit 100", false, 1},
	} {
		dir := t.TempDir()
		bin, policy, mark := filepath.Join(dir, "bin"), filepath.Join(dir, "policy-rc.d"), filepath.Join(dir, "mark")
		os.Mkdir(bin, 0o755)
		os.WriteFile(filepath.Join(bin, "apt-get"), []byte("#!/bin/sh\n"+c.aptGet+"\n"), 0o755)
		for _, tool := range []string{"chmod", "rm"} {
			if p, err := exec.LookPath(tool); err == nil {
				os.Symlink(p, filepath.Join(bin, tool))
			}
		}
		cmd := exec.Command("bash", "-c", "set -euo pipefail\nsay() { :; }\ndie() { echo \"$*\" >&2; exit 1; }\n"+string(install)+"install\n")
		cmd.Env = []string{"PATH=" + bin, "SLURM_TEST_POLICY_RC=" + policy, "MARK=" + mark}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if c.interrupt {
			for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				if _, err := os.Stat(mark); err == nil {
					break
				}
			}
			if _, err := os.Stat(policy); err != nil {
				t.Errorf("%s: no policy-rc.d while apt-get runs (%v)", c.name, err)
			}
			syscall.Kill(-cmd.Process.Pid, syscall.SIGINT) // Ctrl-C: the whole foreground group
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			err = <-done
			t.Errorf("%s: install still running after 10 s", c.name)
		}
		if code := cmd.ProcessState.ExitCode(); code != c.code {
			t.Errorf("%s: exit %d (%v), want %d; stderr %q", c.name, code, err, c.code, stderr.String())
		}
		if _, err := os.Stat(policy); err == nil {
			t.Errorf("%s: the policy-rc.d written for the install was left behind", c.name)
		}
	}
}

// TestBatteryTreefixEndless (issue 56, item 20): solve treefix --in
// /dev/zero stops within a line's limit, naming it, as the other readers
// do (it read for ever: here it would meet the 10 s deadline).
func TestBatteryTreefixEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code, _, stderr := captureCtx(t, ctx, "solve", "treefix", "--op", "rootfix", "--in", "/dev/zero")
	if code != 1 || !strings.Contains(stderr, "/dev/zero:1:") || !strings.Contains(stderr, "line longer than") {
		t.Errorf("solve treefix --in /dev/zero: exit %d, stderr %q; want 1, line 1 longer than the limit", code, stderr)
	}
}

// TestBatteryClaimsManySamples (issue 56, item 27): claims reads a file
// whose cells hold 1,000 samples each with the Mann-Whitney tests on the
// normal approximation, never U's exact table (about n⁴ operations and n³
// memory: 100, 200 and 300 samples took 0.19, 1.7 and 7.1 s, and 1,000
// ran past 40 s and 3 GB). The file is testdata/runs/hungarian-quick.jsonl
// (hungarian/table1 at quick scale, --reps 6, on a 2-core machine, its ok
// records) with each cell's samples repeated to 1,000; the time is
// logged, the work asserted.
func TestBatteryClaimsManySamples(t *testing.T) {
	f, err := bench.ReadFile("testdata/runs/hungarian-quick.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for i := range f.Records {
		for k := range f.Records[i].Phases {
			p := &f.Records[i].Phases[k]
			if len(p.SamplesMS) == 0 {
				continue
			}
			many := make([]float64, 1000)
			for j := range many {
				many[j] = p.SamplesMS[j%len(p.SamplesMS)] // the same sample index in every phase: the breakdown still adds up
			}
			p.SamplesMS, p.MedianMS, p.StatMS = many, bench.Median(many), bench.Median(many)
		}
	}
	path := filepath.Join(t.TempDir(), "many.jsonl")
	if err := bench.WriteFile(path, f); err != nil {
		t.Fatal(err)
	}
	_, before := stats.Work()
	t0 := time.Now()
	code, _, stderr := capture(t, "claims", path)
	took := time.Since(t0)
	largest, after := stats.Work()
	if code != 0 {
		t.Fatalf("claims: exit %d, %s", code, stderr)
	}
	t.Logf("claims of %d cells of 1,000 samples: %v, %d Mann-Whitney tests on the normal approximation", len(f.Records), took, after-before)
	if after == before {
		t.Errorf("claims ran no Mann-Whitney test on the 1,000-sample cells: the file no longer exercises the test")
	}
	if largest > stats.ExactMax {
		t.Errorf("an exact U distribution of %d samples a side was computed (the limit is %d)", largest, stats.ExactMax)
	}
}

// TestBatteryREADME: testdata/bad/README.md states how many cases the
// battery holds, by area: its counts are the code's.
func TestBatteryREADME(t *testing.T) {
	readme, err := os.ReadFile("testdata/bad/README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("battery_test.go")
	if err != nil {
		t.Fatal(err)
	}
	byArea := map[string]int{}
	for _, c := range badInputCases() {
		f := strings.Fields(c.name)
		area := f[0]
		if area == "solve" {
			area += " " + f[1]
		}
		byArea[area]++
	}
	stated := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^- ([a-z ]+): (\d+) cases?\b`).FindAllStringSubmatch(string(readme), -1) {
		n, _ := strconv.Atoi(m[2])
		stated[m[1]] = n
	}
	if !maps.Equal(stated, byArea) {
		t.Errorf("README's bad-input cases by area %v; the code's %v", stated, byArea)
	}
	own := len(regexp.MustCompile(`(?m)^func TestBattery`).FindAll(src, -1)) - 2 // less TestBatteryBadInputs and this one
	total := regexp.MustCompile(`holds (\d+) bad-input cases \(TestBatteryBadInputs[^)]*\) and (\d+) tests of their own, (\d+) in all`).FindStringSubmatch(strings.Join(strings.Fields(string(readme)), " "))
	if total == nil || total[1] != strconv.Itoa(len(badInputCases())) || total[2] != strconv.Itoa(own) || total[3] != strconv.Itoa(len(badInputCases())+own) {
		t.Errorf("README's totals %q; the code holds %d bad-input cases and %d tests of their own", total, len(badInputCases()), own)
	}
}

// TestBatteryClaimsMachines: claims over the runs of two machines gives a
// column per machine, whichever file comes first (it gave one tally, the
// last file's).
func TestBatteryClaimsMachines(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	runFile(t, a, func(h *bench.File) {})
	runFile(t, b, func(h *bench.File) { h.Machine.Label, h.Machine.Cores = "big-box", 64 })
	for _, order := range [][]string{{a, b}, {b, a}} {
		code, stdout, stderr := capture(t, append([]string{"claims"}, order...)...)
		if code != 0 {
			t.Fatalf("claims %v: exit %d, %s", order, code, stderr)
		}
		for _, col := range []string{"on big-box (64 cores)", "on " + currentMachine().Label} {
			if !strings.Contains(stdout, col) {
				t.Errorf("claims %v: no column %q", order, col)
			}
		}
	}
}

// TestBatteryTablesAndVerdicts: CSV cells are numbers, their shares and
// units in columns of their own (they were "1,523.8 (62%)", "0.07KB",
// "1 · 32,249"); a verdict whose figure prints like its band's edge says
// on which side it lies (it printed "10.0x, outside ... (6.40x-10.0x)").
func TestBatteryTablesAndVerdicts(t *testing.T) {
	code, stdout, stderr := capture(t, "table", "testdata/runs/amd-epyc-kleene-paper.jsonl", "--format", "csv")
	if code != 0 {
		t.Fatalf("table --format csv: exit %d, %s", code, stderr)
	}
	composite := regexp.MustCompile(`(^|,)"?-?[0-9][0-9,.]* ?(\([0-9.]+%\)|KB|MB|GB|ms|s| · )`)
	for _, line := range strings.Split(stdout, "\n") {
		if !strings.HasPrefix(line, "#") && composite.MatchString(line) {
			t.Errorf("a CSV cell holds a number with more: %q", line)
		}
	}
	factor := 1.25
	v, why := experiments.RatioJudgeWith(paperdata.Tolerance{Factor: &factor}, 8, 10.004, experiments.HigherBetter, experiments.RatioText)
	if v == experiments.Reproduced || !strings.Contains(why, "above its upper edge") {
		t.Errorf("10.004x against 8x within 1.25x: %s, %q; want it said to lie above the band's upper edge", v, why)
	}
}

// TestBatteryStampIgnoresOwnOutputs: the result files, reports and plots a
// run writes under results/ and plots/ leave `make build`'s stamp clean
// (they made every later build "+dirty"); any other change marks it.
func TestBatteryStampIgnoresOwnOutputs(t *testing.T) {
	for _, tool := range []string{"git", "make"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s here", tool)
		}
	}
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sh := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	os.WriteFile(filepath.Join(dir, "Makefile"), makefile, 0o644)
	sh("git", "init", "-q")
	sh("git", "add", "Makefile")
	sh("git", "commit", "-qm", "m")
	head := strings.TrimSpace(sh("git", "rev-parse", "HEAD"))
	for _, p := range []string{"results/some-machine/20261127-120000.jsonl", "results/some-machine/20261127-120000.md", "results/some-machine/20261127-120000.plots/fig.png", "plots/some-machine/fig.svg"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte("x"), 0o644)
	}
	if out := sh("make", "-n", "build"); !strings.Contains(out, "linkedCommit="+head+" ") {
		t.Errorf("with only the harness's outputs new, make build stamps:\n%s\nwant linkedCommit=%s, clean", out, head)
	}
	os.WriteFile(filepath.Join(dir, "change.go"), []byte("package x\n"), 0o644)
	if out := sh("make", "-n", "build"); !strings.Contains(out, "linkedCommit="+head+"+dirty") {
		t.Errorf("with a new source file, make build stamps:\n%s\nwant %s+dirty", out, head)
	}
}

// The runner's cases of issue 56 (items 9, 16, 21, 26, 28), in one block.

// TestBatteryResumeNothingToDo (issue 56, items 16 and 28): a --resume of
// a complete file leaves it byte for byte as it was, however often: no
// notes line, and the cells it records unavailable are not recorded
// again (a resume of a complete quick file appended every unavailable
// record again, 54 -> 82 lines, and a notes line each time).
func TestBatteryResumeNothingToDo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.jsonl")
	args := []string{"run", "hungarian/table1", "--scale", "quick", "--reps", "1", "--warmup", "0", "--no-history", "--out", out}
	if code, _, stderr := capture(t, args...); code != 0 {
		t.Fatalf("the first run: exit %d, %s", code, stderr)
	}
	before, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if code, _, stderr := capture(t, append(slices.Clone(args), "--resume")...); code != 0 {
			t.Fatalf("resume %d: exit %d, %s", i+1, code, stderr)
		}
		if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
			t.Fatalf("resume %d with nothing to do changed the file: %d lines, were %d", i+1, bytes.Count(after, []byte("\n")), bytes.Count(before, []byte("\n")))
		}
	}
	if !bytes.Contains(before, []byte(`"status":"unavailable"`)) {
		t.Log("no cell is unavailable here (a GPU): item 28 is held only where one is")
	}
}

// TestBatteryInterruptedReproduce (issue 56, item 9): a reproduce
// interrupted without a budget says, on stderr, in its result file's
// notes and in its report, that it was interrupted after N of M cells and
// which command goes on; the measurement the interruption stopped is not
// "stopped at the budget's end", and no message ends in "context
// canceled".
func TestBatteryInterruptedReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs paper-scale cells for two seconds")
	}
	out := filepath.Join(t.TempDir(), "run.jsonl")
	cmd, stderr := startCLI(t, false, "reproduce", "--scale", "paper", "--impl", "cpu/paper", "--budget", "0", "--no-history", "--out", out)
	time.Sleep(2 * time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	msg := stderr.String()
	again := "semibench reproduce --scale paper --impl cpu/paper --budget 0 --no-history --out " + out + " --resume"
	if !regexp.MustCompile(`interrupted after \d+ of \d+ cells`).MatchString(msg) || !strings.Contains(msg, again) || strings.Contains(msg, "context canceled") {
		t.Errorf("stderr %q: want interrupted after N of M cells, %q, and no context canceled", msg, again)
	}
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(f.Notes, "\n")
	if !strings.Contains(notes, "interrupted: after ") || strings.Contains(notes, "budget's end") {
		t.Errorf("notes %q: want the interruption, and no budget's end", notes)
	}
	report, err := os.ReadFile(strings.TrimSuffix(out, ".jsonl") + ".md")
	if err != nil || !bytes.Contains(report, []byte("**Interrupted** after ")) || !bytes.Contains(report, []byte(again)) {
		t.Errorf("the report (%v) does not say it was interrupted, and how to go on", err)
	}
}

// TestBatteryProgressSaysWhatRan (issue 56, item 21): a run's closing
// line says how many cells were measured, skipped and unavailable, and
// how many of the claims this machine can measure were, not "done: N
// cells" as if all had run. (runner's TestProgressGolden holds the lines
// of every pass.)
func TestBatteryProgressSaysWhatRan(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run.jsonl")
	cmd, buf := startCLI(t, false, "run", "hungarian/table1", "--scale", "quick", "--reps", "1", "--warmup", "0", "--budget", "1m", "--no-history", "--out", out)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v: %s", err, buf)
	}
	stderr := buf.String()
	f, err := bench.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	latest := map[string]string{} // a cell topped up counts once
	for _, r := range f.Records {
		latest[r.Key()] = r.Status
	}
	n := map[string]int{}
	for _, st := range latest {
		n[st]++
	}
	want := fmt.Sprintf(": %d measured", n[bench.StatusOK]+n[bench.StatusCheckFailed])
	if u := n[bench.StatusUnavailable]; u > 0 {
		want += fmt.Sprintf(", %d unavailable", u)
	}
	if !strings.Contains(stderr, want+"; ") || !regexp.MustCompile(`; \d+ of \d+ claims measured at the papers' sizes`).MatchString(stderr) || strings.Contains(stderr, "done: ") {
		t.Errorf("stderr %q: want the closing line to hold %q and the claims measured of those measurable", stderr, want)
	}
}

// TestBatterySkippedSplit (issue 56, item 26): the report splits the
// skipped cells by reason and by experiment ("689 skipped (by the budget
// or memory)" said no more).
func TestBatterySkippedSplit(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "run.jsonl"), filepath.Join(dir, "report.md")
	h := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(), Machine: currentMachine(), Scale: "quick", Started: time.Now().UTC()}
	skip := func(exp, impl, n, why string) bench.Record {
		return bench.Record{Experiment: exp, Impl: impl, Params: bench.Params{{Name: "n", Value: n}, {Name: "weights", Value: "normal"}},
			Status: bench.StatusSkipped, EstimateMS: 1, Error: why}
	}
	h.Records = []bench.Record{
		skip("kleene/table2", "cpu/paper", "60", "estimated 2s; the 5m0s budget is spent"),
		skip("kleene/table2", "cpu/fast", "60", "estimated 2s; the 5m0s budget is spent"),
		skip("kleene/table3", "cpu/paper", "60", "needs 40.0 GiB of host memory, 23.5 GiB available (limit 23.5 GiB, from MemTotal)"),
	}
	if err := bench.WriteFile(in, h); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := capture(t, "report", in, "--out", out); code != 0 {
		t.Fatalf("report: exit %d, %s", code, stderr)
	}
	b, _ := os.ReadFile(out)
	if want := "Skipped: 3 cell(s), 2 not reached before the budget's end, 1 beyond the memory; by experiment, 2 kleene/table2, 1 kleene/table3."; !bytes.Contains(b, []byte(want)) {
		t.Errorf("the report lacks %q", want)
	}
}
