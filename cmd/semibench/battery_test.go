//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
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
		{[]string{"peers", "record", "--out", filepath.Join(dir, "p.json"), "--experiment", "hungarian/table1", "--impl", "peer/x", "--param", "bogus=1", "--phase", "total=1"},
			2, []string{`no parameter "bogus"`, "n, range"}},
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
