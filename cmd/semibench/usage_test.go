package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageContract checks the exit status of every command but run and
// reproduce (tested beside them) through dispatch, the entry point main
// uses: 2 for bad usage, refused before any work (the input files named
// here do not exist, so a flag checked only after opening them would exit
// 1), 1 for a failure, with the parameter at fault named on stderr.
func TestUsageContract(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.in")
	out := filepath.Join(dir, "out")
	const mm = "%%MatrixMarket matrix coordinate real general\n"
	dup := writeTemp(t, "dup.mtx", mm+"2 2 3\n1 2 1\n% c\n2 1 5\n1 2 7\n")
	const dupMsg = "dup.mtx:6: duplicate entry (1, 2), first at line 3"
	cases := []struct {
		args []string
		code int
		want string
	}{
		// the command itself
		{nil, 2, ""},
		{[]string{"bogus"}, 2, `unknown command "bogus"`},
		{[]string{"--bogus"}, 2, `unknown command "--bogus"`},
		{[]string{"help", "bogus"}, 2, `unknown command "bogus"`},
		{[]string{"help", "solve"}, 0, ""},
		{[]string{"info", "extra"}, 2, "unexpected arguments"},
		{[]string{"info", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"info", "--json=maybe"}, 2, "invalid boolean value"},
		{[]string{"list", "extra"}, 2, "list takes no arguments"},
		{[]string{"kernels"}, 2, "kernels needs a subcommand: export"},
		{[]string{"kernels", "import"}, 2, "kernels needs a subcommand: export"},
		{[]string{"kernels", "export", "--dir"}, 2, "flag needs an argument: -dir"},
		// result files
		{[]string{"table"}, 2, "name at least 1 result file"},
		{[]string{"table", missing, "--format", "bogus"}, 2, `--format: unknown table format "bogus"`},
		{[]string{"table", missing, "--experiment", "kleene/tabel2"}, 2, `--experiment: unknown experiment "kleene/tabel2"`},
		{[]string{"table", missing}, 1, "missing.in"},
		{[]string{"compare", missing}, 2, "at least 2 result file"},
		{[]string{"compare", missing, missing, "--format", "html"}, 2, `--format: unknown table format "html"`},
		{[]string{"plot"}, 2, "name at least 1 result file"},
		{[]string{"plot", missing, "--merge=2"}, 2, "invalid boolean value"},
		{[]string{"export"}, 2, "--benchfmt FILE is required"},
		{[]string{"export", missing, missing}, 2, "unexpected arguments"},
		// gen
		{[]string{"gen"}, 2, "gen needs a name"},
		{[]string{"gen", "bogus"}, 2, `gen: unknown name "bogus"`},
		{[]string{"gen", "dag", "--n", "0", "--out", out}, 2, "--n must be in 1..65536, got 0"},
		{[]string{"gen", "dag", "--n", "4294967296", "--out", out}, 2, "--n must be in 1..65536, got 4294967296"},
		{[]string{"gen", "dag", "--n", "99999999999999999999", "--out", out}, 2, "invalid value"},
		{[]string{"gen", "dag", "--n", "4", "--seed", "-1", "--out", out}, 2, "invalid value"},
		{[]string{"gen", "dag", "--n", "4"}, 2, "--out FILE.mtx is required"},
		{[]string{"gen", "dag", "--n", "4", "--out", out, "extra"}, 2, "unexpected arguments"},
		{[]string{"gen", "lap", "--n", "0", "--out", out}, 2, "--n must be at least 1"},
		{[]string{"gen", "lap", "--n", "3", "--cols", "2", "--out", out}, 2, "--cols at least --n"},
		{[]string{"gen", "lap", "--n", "65536", "--cols", "65536", "--out", out}, 2, "--n x --cols must be at most 2147483648 cells"},
		{[]string{"gen", "lap", "--n", "9223372036854775807", "--out", out}, 2, "--n x --cols must be at most 2147483648 cells"},
		{[]string{"gen", "lap", "--n", "4", "--range", "n10", "--out", out}, 2, "--range"},
		{[]string{"gen", "lap", "--n", "4"}, 2, "--out is required"},
		{[]string{"gen", "domination", "--m", "17", "--out", out}, 2, "--m"},
		{[]string{"gen", "domination", "--m", "9223372036854775807", "--out", out}, 2, "--m"},
		// solve
		{[]string{"solve"}, 2, "solve needs a name"},
		{[]string{"solve", "bogus"}, 2, `solve: unknown name "bogus"`},
		{[]string{"solve", "domination", "--m", "3", "--n", "9223372036854775807"}, 2, "--n must be in 3..3074457345618258602 with --m 3"},
		{[]string{"solve", "domination", "--m", "3", "--n", "9223372036854775807", "--witness"}, 2, "--n must be in 3..3074457345618258602"},
		{[]string{"solve", "domination", "--m", "17", "--n", "5"}, 2, "--m must be in 2..16"},
		{[]string{"solve", "domination", "--m", "3", "--n", "3074457345618258602", "--witness"}, 2, "--n with --witness: domination: witness for m = 3, n = 3074457345618258602: 3074457345618258603 vectors of 60 bytes overflow a byte count (n <= 307445734561825859)"},
		{[]string{"solve", "domination", "--m", "3", "--n", "5", "--threads", "-1"}, 2, "--threads must be in 0..65536"},
		{[]string{"solve", "domination", "--m", "3", "--n", "5", "--threads", "1000000000"}, 2, "--threads must be in 0..65536"},
		{[]string{"solve", "domination", "--m", "3"}, 2, "--n must be in 3.."},
		{[]string{"solve", "apsp"}, 2, "--in is required"},
		{[]string{"solve", "apsp", "--in", missing, "--semiring", "max-times"}, 2, `unknown semiring "max-times"`},
		{[]string{"solve", "apsp", "--in", missing, "--impl", "cpu/bogus"}, 2, `unknown implementation "cpu/bogus"`},
		{[]string{"solve", "apsp", "--in", missing, "--inverse"}, 2, "--inverse needs the real semiring"},
		{[]string{"solve", "apsp", "--in", missing, "--semiring", "real", "--inverse", "--impl", "cpu/fast"}, 2, "--inverse runs the direct variant of cpu/sgje"},
		{[]string{"solve", "apsp", "--in", missing, "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"solve", "apsp", "--in", missing}, 1, "missing.in"},
		{[]string{"solve", "apsp", "--in", dup, "--out", out}, 1, dupMsg},
		{[]string{"solve", "treefix", "--in", missing}, 2, "--op is required"},
		{[]string{"solve", "treefix", "--in", missing, "--op", "midfix"}, 2, "unknown treefix operation"},
		{[]string{"solve", "treefix", "--in", missing, "--op", "rootfix", "--impl", "bogus"}, 2, `unknown treefix implementation "bogus"`},
		{[]string{"solve", "treefix", "--in", missing, "--op", "rootfix", "--float32=x"}, 2, "invalid boolean value"},
		{[]string{"solve", "treefix", "--in", missing, "--op", "rootfix"}, 1, "missing.in"},
		{[]string{"solve", "kleene"}, 2, "--in is required"},
		{[]string{"solve", "kleene", "--in", missing, "--impl", "gpu/fast"}, 2, "unknown Kleene implementation"},
		{[]string{"solve", "kleene", "--in", missing, "--threads", "-2"}, 2, "--threads must be in 0..65536"},
		{[]string{"solve", "kleene", "--in", missing, "--gpus", "0"}, 2, "--gpus must be in 1..1024"},
		{[]string{"solve", "kleene", "--in", missing, "--gpus", "9223372036854775807"}, 2, "--gpus must be in 1..1024"},
		{[]string{"solve", "kleene", "--in", missing}, 1, "missing.in"},
		{[]string{"solve", "kleene", "--in", dup, "--out", out}, 1, dupMsg},
		{[]string{"solve", "lap"}, 2, "--in is required"},
		{[]string{"solve", "lap", "--in", missing, "--impl", "cpu/bogus"}, 2, "unknown LAP implementation"},
		{[]string{"solve", "lap", "--in", missing, "--maximize=yes"}, 2, "invalid boolean value"},
		{[]string{"solve", "lap", "--in", missing}, 1, "missing.in"},
	}
	for _, c := range cases {
		code, _, stderr := capture(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("semibench %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), code, stderr, c.code, c.want)
		}
		if c.code == 2 && c.want != "" && !strings.Contains(stderr, "--help") {
			t.Errorf("semibench %s: the usage error does not point to --help: %q", strings.Join(c.args, " "), stderr)
		}
	}
}
