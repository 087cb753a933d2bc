package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/generators/trees"
	"github.com/semibench/semibench/mtx"
	"github.com/semibench/semibench/problems/treefix"
)

// genFile runs a `semibench gen` command that must succeed and returns the
// file it wrote.
func genFile(t *testing.T, out string, args ...string) []byte {
	t.Helper()
	code, _, stderr := capture(t, append(append([]string{"gen"}, args...), "--out", out)...)
	if code != 0 {
		t.Fatalf("gen %v: exit %d, %s", args, code, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// closureDiag runs `solve apsp` (min-plus) on in and returns d_ii.
func closureDiag(t *testing.T, in, impl string) []float64 {
	t.Helper()
	out := in + "." + strings.ReplaceAll(impl, "/", "-") + ".d.mtx"
	if code, _, stderr := capture(t, "solve", "apsp", "--in", in, "--out", out, "--impl", impl); code != 0 {
		t.Fatalf("solve apsp %s: exit %d, %s", in, code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := mtx.Read(f, out)
	if err != nil {
		t.Fatal(err)
	}
	return m.Diagonal(math.Inf(1))
}

var cycleLine = regexp.MustCompile(`planted negative cycle ([0-9 >-]+) of weight (-[0-9]+)`)

// TestGenAPSP: same seed, same bytes; another seed, another graph; exactly
// --arcs arcs; without --negative-cycle the closure by solve apsp has a zero
// diagonal (no negative cycle), with it the planted cycle's vertices are at
// -inf; some arcs are negative.
func TestGenAPSP(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	args := []string{"apsp", "--n", "40", "--density", "0.3", "--min", "-30", "--max", "30", "--seed", "5"}
	a, b := genFile(t, p("a.mtx"), args...), genFile(t, p("b.mtx"), args...)
	if !bytes.Equal(a, b) {
		t.Fatal("two runs with the same seed wrote different files")
	}
	if c := genFile(t, p("c.mtx"), append(args, "--seed", "6")...); bytes.Equal(a, c) {
		t.Error("seeds 5 and 6 wrote the same file")
	}
	if !bytes.Contains(a, []byte("\n40 40 468\n")) { // round(0.3 · 40 · 39)
		t.Errorf("size line of 468 arcs missing:\n%.400s", a)
	}
	if !regexp.MustCompile(`\n\d+ \d+ -\d+\n`).Match(a) {
		t.Error("no negative arc")
	}
	for _, impl := range []string{"cpu/fast", "cpu/sgje"} {
		for i, d := range closureDiag(t, p("a.mtx"), impl) {
			if d != 0 {
				t.Errorf("%s: d_%d,%d = %g without --negative-cycle, want 0", impl, i+1, i+1, d)
			}
		}
	}
	for seed := range 4 {
		in := p("neg" + strconv.Itoa(seed) + ".mtx")
		data := genFile(t, in, "apsp", "--n", "25", "--arcs", strconv.Itoa(60+100*seed), "--seed", strconv.Itoa(seed), "--negative-cycle")
		m := cycleLine.FindSubmatch(data)
		if m == nil {
			t.Fatalf("no planted cycle in the header:\n%.400s", data)
		}
		diag := closureDiag(t, in, "cpu/fast")
		for _, v := range strings.Split(string(m[1]), " -> ") {
			k, _ := strconv.Atoi(v)
			if !math.IsInf(diag[k-1], -1) {
				t.Errorf("seed %d: vertex %d of the cycle %s has d_ii = %g, want -inf", seed, k, m[1], diag[k-1])
			}
		}
	}
}

// readTree reads a gen tree file through solve treefix's reader.
func readTree(t *testing.T, path string) *treefix.Input {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in, err := treefix.ReadInput(f, path, false)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestGenTree: the star is a root with n-1 leaves, the caterpillar a chain
// of n levels, a random tree has --levels levels, in every numbering; the
// files read back through solve treefix's reader, and solve treefix's
// rootfix equals the sums along the parent array; same seed, same bytes.
func TestGenTree(t *testing.T) {
	dir := t.TempDir()
	const n = 50
	for _, numbering := range []string{"bfs", "dfs", "random"} {
		for _, shape := range []string{"star", "caterpillar", "random"} {
			args := []string{"tree", "--shape", shape, "--n", strconv.Itoa(n), "--numbering", numbering, "--seed", "3", "--max-weight", "9"}
			if shape == "random" {
				args = append(args, "--levels", "7")
			}
			path := filepath.Join(dir, shape+"-"+numbering+".txt")
			data := genFile(t, path, args...)
			if again := genFile(t, path+".2", args...); !bytes.Equal(data, again) {
				t.Errorf("%s %s: two runs differ", shape, numbering)
			}
			in := readTree(t, path)
			if len(in.Parent) != n || !in.Int {
				t.Fatalf("%s %s: %d vertices, integer weights %t", shape, numbering, len(in.Parent), in.Int)
			}
			children := make([]int, n)
			root := -1
			for v, p := range in.Parent {
				if p < 0 {
					root = v
				} else {
					children[p]++
				}
			}
			st, err := trees.ShapeStats(in.Parent)
			if err != nil {
				t.Fatal(err)
			}
			switch shape {
			case "star":
				if children[root] != n-1 || st.Depth != 2 {
					t.Errorf("star %s: the root %d has %d children, depth %d; want %d leaves", numbering, root, children[root], st.Depth, n-1)
				}
			case "caterpillar":
				leaves := 0
				for _, c := range children {
					if c > 1 {
						t.Fatalf("caterpillar %s: a vertex with %d children", numbering, c)
					}
					if c == 0 {
						leaves++
					}
				}
				if leaves != 1 || st.Depth != n {
					t.Errorf("caterpillar %s: %d leaves, depth %d; want a chain of %d", numbering, leaves, st.Depth, n)
				}
			case "random":
				if st.Depth != 7 {
					t.Errorf("random %s: depth %d, want 7", numbering, st.Depth)
				}
			}
			if numbering == "bfs" && root != 0 {
				t.Errorf("%s bfs: root %d, want 0", shape, root)
			}
			// rootfix by solve treefix against the sums up the parent array
			code, out, stderr := capture(t, "solve", "treefix", "--op", "rootfix", "--in", path)
			if code != 0 {
				t.Fatalf("solve treefix: exit %d, %s", code, stderr)
			}
			got := strings.Fields(out)
			for v := range n {
				var want int64
				for u := v; u >= 0; u = int(in.Parent[u]) {
					want += in.IntW[u]
				}
				if len(got) != n || got[v] != strconv.FormatInt(want, 10) {
					t.Fatalf("%s %s: rootfix of vertex %d: %v, want %d", shape, numbering, v, got, want)
				}
			}
		}
	}
}

// TestGenTreeWeights: float and gensum weights read back exactly in float64
// and float32 (--float32 rounds nothing: they are float32 values); gensum's
// header names the achieved condition number.
func TestGenTreeWeights(t *testing.T) {
	dir := t.TempDir()
	for _, w := range []string{"float", "gensum"} {
		path := filepath.Join(dir, w+".txt")
		data := genFile(t, path, "tree", "--shape", "caterpillar", "--n", "100", "--weights", w, "--numbering", "random")
		if w == "gensum" && !bytes.Contains(data, []byte("achieved condition number")) {
			t.Errorf("gensum header: %.200s", data)
		}
		f64 := readTree(t, path)
		f, _ := os.Open(path)
		f32, err := treefix.ReadInput(f, path, true)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for v, x := range f64.W {
			if x != float64(float32(x)) || f32.W[v] != x {
				t.Fatalf("%s: weight of vertex %d: %v in float64, %v in float32", w, v, x, f32.W[v])
			}
		}
	}
}

// TestGenUsage: bad flags of gen apsp and gen tree exit 2 before any work,
// naming the flag (no file is written).
func TestGenUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"apsp", "--n", "0", "--out", out}, "--n must be in 1..65536, got 0"},
		{[]string{"apsp", "--n", "65537", "--out", out}, "--n must be in 1..65536"},
		{[]string{"apsp", "--n", "9223372036854775807", "--out", out}, "--n must be in 1..65536"},
		{[]string{"apsp", "--n", "5", "--arcs", "21", "--out", out}, "--arcs must be in 0..20"},
		{[]string{"apsp", "--n", "5", "--arcs", "-1", "--out", out}, "--arcs must be in 0..20"},
		{[]string{"apsp", "--n", "5", "--density", "1.01", "--out", out}, "--density must be in [0, 1]"},
		{[]string{"apsp", "--n", "5", "--density", "NaN", "--out", out}, "--density must be in [0, 1]"},
		{[]string{"apsp", "--n", "5", "--density", "0.5", "--arcs", "3", "--out", out}, "--arcs and --density exclude each other"},
		{[]string{"apsp", "--n", "5", "--min", "-9223372036854775808", "--out", out}, "--min must be in -2147483648..2147483648"},
		{[]string{"apsp", "--n", "5", "--max", "4294967296", "--out", out}, "--max must be in -2147483648..2147483648"},
		{[]string{"apsp", "--n", "5", "--min", "3", "--max", "2", "--out", out}, "--min 3 is above --max 2"},
		{[]string{"apsp", "--n", "5", "--min", "-3", "--max", "-1", "--out", out}, "--max must be at least 0 without --negative-cycle"},
		{[]string{"apsp", "--n", "5", "--min", "0", "--negative-cycle", "--out", out}, "--negative-cycle needs a negative --min"},
		{[]string{"apsp", "--n", "1", "--negative-cycle", "--out", out}, "--negative-cycle needs --n of at least 2"},
		{[]string{"apsp", "--n", "5", "--arcs", "2", "--negative-cycle", "--out", out}, "--negative-cycle needs at least 3 arcs"},
		{[]string{"apsp", "--n", "5", "--min", "x", "--out", out}, "invalid value"},
		{[]string{"apsp", "--n", "5"}, "--out is required"},
		{[]string{"tree", "--n", "5", "--out", out}, "--shape is required"},
		{[]string{"tree", "--shape", "binary", "--n", "5", "--out", out}, `--shape unknown shape "binary"`},
		{[]string{"tree", "--shape", "star", "--n", "0", "--out", out}, "--n must be in 1..1073741824"},
		{[]string{"tree", "--shape", "star", "--n", "9223372036854775807", "--out", out}, "--n must be in 1..1073741824"},
		{[]string{"tree", "--shape", "random", "--n", "5", "--levels", "6", "--out", out}, "--levels must be in 1..5"},
		{[]string{"tree", "--shape", "random", "--n", "5", "--levels", "-1", "--out", out}, "--levels must be in 1..5"},
		{[]string{"tree", "--shape", "star", "--n", "5", "--levels", "2", "--out", out}, "--levels applies to --shape random only"},
		{[]string{"tree", "--shape", "star", "--n", "5", "--profile", "bell", "--out", out}, "--profile applies to --shape random only"},
		{[]string{"tree", "--shape", "random", "--n", "5", "--profile", "flat", "--out", out}, `--profile: unknown profile "flat"`},
		{[]string{"tree", "--shape", "star", "--n", "5", "--numbering", "lex", "--out", out}, `--numbering: unknown numbering "lex"`},
		{[]string{"tree", "--shape", "star", "--n", "5", "--weights", "gauss", "--out", out}, `--weights unknown weights "gauss"`},
		{[]string{"tree", "--shape", "star", "--n", "5", "--max-weight", "-1", "--out", out}, "--max-weight must be in 0..2147483648"},
		{[]string{"tree", "--shape", "star", "--n", "5", "--max-weight", "4294967296", "--out", out}, "--max-weight must be in 0..2147483648"},
		{[]string{"tree", "--shape", "star", "--n", "5", "--weights", "float", "--max-weight", "3", "--out", out}, "--max-weight applies to --weights int only"},
		{[]string{"tree", "--shape", "star", "--n", "5", "--cond", "100", "--out", out}, "--cond applies to --weights gensum only"},
		{[]string{"tree", "--shape", "star", "--n", "3", "--weights", "gensum", "--out", out}, "--n must be in 4..16777216 with --weights gensum"},
		{[]string{"tree", "--shape", "star", "--n", "5", "--weights", "gensum", "--cond", "1e31", "--out", out}, "--cond must be in [10, 1e30]"},
		{[]string{"tree", "--shape", "star", "--n", "5"}, "--out is required"},
	}
	for _, c := range cases {
		code, _, stderr := capture(t, append([]string{"gen"}, c.args...)...)
		if code != 2 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, "--help") {
			t.Errorf("gen %s: exit %d, stderr %q; want exit 2 and %q", strings.Join(c.args, " "), code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("gen %s wrote %s", strings.Join(c.args, " "), out)
		}
	}
}

// TestProblemHelp: every generator and problem has its description;
// `solve --help` states both arc conventions and what the treefix and lap
// inputs mean, `solve NAME --help` its own, and `gen --help` lists apsp and
// tree.
func TestProblemHelp(t *testing.T) {
	for name := range generators {
		if generatorHelp[name] == "" {
			t.Errorf("gen %s has no description in generatorHelp", name)
		}
	}
	for name := range solvers {
		if solverHelp[name] == "" {
			t.Errorf("solve %s has no description in solverHelp", name)
		}
	}
	code, out, _ := capture(t, "solve", "--help")
	for _, want := range []string{
		`"i j w" is [X]_ij = w, the weight of the arc j -> i`,
		`"i j w" is a_ij = w, the weight of the arc i -> j`,
		`a line "parent weight" per vertex`,
		"row i, column j is the cost of assigning row i",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("solve --help: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
	for name, want := range map[string]string{"kleene": "the arc j -> i", "apsp": "the arc i -> j", "treefix": "parent -1 for the root", "lap": "r x c with r <= c"} {
		code, out, _ := capture(t, "solve", name, "--help")
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("solve %s --help: exit %d, lacks %q:\n%s", name, code, want, out)
		}
	}
	code, out, _ = capture(t, "gen", "--help")
	for _, want := range []string{"  apsp ", "  tree ", "  dag ", "negative cycle", "star, caterpillar or random"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("gen --help: exit %d, lacks %q:\n%s", code, want, out)
		}
	}
}
