package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

// millis masks the times of the solve lines and of solve lap --ms.
var millis = regexp.MustCompile(`[0-9]+\.[0-9]{3} ms|"ms":[0-9.e+-]+`)

func mask(s string) string {
	return millis.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, `"ms"`) {
			return `"ms":T`
		}
		return "T ms"
	})
}

// TestGolden holds every solve and gen to the output convention: the
// answer (or the generated file) on standard output, byte for byte as in
// testdata/golden/NAME.stdout, and the one line on standard error, times
// masked, as in NAME.stderr. go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"solve-lap", []string{"solve", "lap", "--in", "testdata/good/lap.csv"}, 0},
		{"solve-lap-ms", []string{"solve", "lap", "--in", "testdata/good/lap.csv", "--maximize", "--ms"}, 0},
		{"solve-lap-batch", []string{"solve", "lap", "--batch", "testdata/good/batch.txt"}, 0},
		{"solve-kleene", []string{"solve", "kleene", "--in", "testdata/good/dag.mtx"}, 0},
		{"solve-kleene-check-failed", []string{"solve", "kleene", "--in", "testdata/bad/kleene/underflow.mtx"}, 1},
		{"solve-apsp", []string{"solve", "apsp", "--in", "testdata/good/apsp.mtx"}, 0},
		{"solve-apsp-boolean", []string{"solve", "apsp", "--semiring", "boolean", "--in", "testdata/good/apsp.mtx"}, 0},
		{"solve-treefix", []string{"solve", "treefix", "--op", "leaffix", "--in", "testdata/good/tree.txt"}, 0},
		{"solve-domination", []string{"solve", "domination", "--m", "3", "--n", "5", "--witness"}, 0},
		{"gen-lap", []string{"gen", "lap", "--n", "3", "--out", "-"}, 0},
		{"gen-lap-batch", []string{"gen", "lap", "--n", "2", "--count", "2", "--out", "-"}, 0},
		{"gen-dag", []string{"gen", "dag", "--n", "3", "--int-weights", "--out", "-"}, 0},
		{"gen-apsp", []string{"gen", "apsp", "--n", "4", "--density", "0.5", "--out", "-"}, 0},
		{"gen-tree", []string{"gen", "tree", "--shape", "caterpillar", "--n", "4", "--out", "-"}, 0},
		{"gen-domination", []string{"gen", "domination", "--m", "2", "--out", "-"}, 0},
	}
	for _, c := range cases {
		code, stdout, stderr := capture(t, c.args...)
		if code != c.code {
			t.Errorf("semibench %s: exit %d, want %d; stderr %q", strings.Join(c.args, " "), code, c.code, stderr)
		}
		for ext, got := range map[string]string{".stdout": mask(stdout), ".stderr": mask(stderr)} {
			path := filepath.Join("testdata", "golden", c.name+ext)
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("semibench %s: %s is\n%s\nwant (%s)\n%s", strings.Join(c.args, " "), ext, got, path, want)
			}
		}
	}
}

// TestSolveLines: the line on standard error has the convention's shape
// for every problem, and a solve with --out writes nothing on standard
// output.
func TestSolveLines(t *testing.T) {
	shape := regexp.MustCompile(`^(lap|kleene|apsp|treefix|domination) [a-z0-9/-]+: [^\n]+, [0-9]+\.[0-9]{3} ms, check: ok\n$`)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"solve", "lap", "--in", "testdata/good/lap.csv"},
		{"solve", "kleene", "--in", "testdata/good/dag.mtx"},
		{"solve", "apsp", "--in", "testdata/good/apsp.mtx"},
		{"solve", "treefix", "--op", "rootfix", "--in", "testdata/good/tree.txt"},
		{"solve", "domination", "--m", "2", "--n", "3"},
	} {
		out := filepath.Join(dir, args[1]+".txt")
		code, stdout, stderr := capture(t, append(args, "--out", out)...)
		if code != 0 || stdout != "" || !shape.MatchString(stderr) {
			t.Errorf("semibench %s --out: exit %d, stdout %q, stderr %q", strings.Join(args, " "), code, stdout, stderr)
		}
		if b, err := os.ReadFile(out); err != nil || len(b) == 0 {
			t.Errorf("semibench %s --out: the file holds %q (%v)", strings.Join(args, " "), b, err)
		}
	}
}
