package report

import (
	"strings"
	"testing"

	"github.com/mattn/go-runewidth"
)

func TestFitColumnsWidthAndWholeWords(t *testing.T) {
	long := "at n = 2048, range 0.1n: the fastest other, cpu/jv, takes 0.834x of cpu/paper's time (Mann-Whitney U p = 0.008 over 6 and 8 samples)"
	cmd := "semibench run kleene/table3 --scale paper --impl 'cpu/paper,cuda/paper' --where 'n=500|1000|2000|4000,weights=normal'"
	tb := Table{Title: strings.Repeat("a long title ", 20), Header: []string{"claim", "ours", "n", "re-run"},
		Rows:  [][]string{{"The O(n^4) CPU Hungarian is the fastest CPU algorithm.", long, "1,000,000,000", cmd}, {"x", "92.2x", "16,777,216", "—"}},
		Notes: []string{strings.Repeat("a note that goes on ", 15)}, Width: 80}
	var b strings.Builder
	if err := tb.Render(&b, FormatText); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for i, l := range strings.Split(out, "\n") {
		if w := runewidth.StringWidth(l); w > 80 {
			t.Errorf("line %d is %d wide: %q", i+1, w, l)
		}
	}
	// Every word of every cell is whole in the output: wrapping cuts
	// between words, and inside a long word only after a separator that
	// is not between digits.
	flat := strings.Join(strings.Fields(strings.NewReplacer("│", " ", "\n", " ").Replace(out)), " ")
	for _, w := range []string{"0.834x", "0.008", "1,000,000,000", "16,777,216", "92.2x", "(Mann-Whitney"} {
		if !strings.Contains(flat, w) {
			t.Errorf("%q is not whole in the output:\n%s", w, out)
		}
	}
	if strings.Contains(out, "...") || strings.Contains(out, "…") {
		t.Errorf("a cell was cut:\n%s", out)
	}
}

func TestFitColumnsLeavesNarrowTablesAlone(t *testing.T) {
	tb := Table{Header: []string{"a", "b"}, Rows: [][]string{{"one two", "3"}}, Width: 120}
	var wide, plain strings.Builder
	if err := tb.Render(&wide, FormatText); err != nil {
		t.Fatal(err)
	}
	tb.Width = 0
	if err := tb.Render(&plain, FormatText); err != nil {
		t.Fatal(err)
	}
	if wide.String() != plain.String() {
		t.Errorf("a table narrower than its width changed:\n%s\nagainst\n%s", wide.String(), plain.String())
	}
}

func TestBreakWord(t *testing.T) {
	for _, c := range []struct {
		word string
		want []string
	}{
		{"'n=500|1000|2000|4000,weights=normal'", []string{"'n=", "500|", "1000|", "2000|", "4000,", "weights=", "normal'"}},
		{"1,000,000,000,000", []string{"1,000,000,000,000"}},
		{"short", []string{"short"}},
	} {
		if got := breakWord(c.word, 5); strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("breakWord(%q) = %q, want %q", c.word, got, c.want)
		}
	}
}

func TestTransposed(t *testing.T) {
	tb := Table{Header: []string{"paper", "reproduced", "not run"}, Rows: [][]string{{"A", "1", "2"}, {"B", "3", "4"}}}
	u := tb.Transposed()
	if got := strings.Join(u.Header, ","); got != "paper,A,B" {
		t.Errorf("header %s", got)
	}
	if len(u.Rows) != 2 || strings.Join(u.Rows[1], ",") != "not run,2,4" {
		t.Errorf("rows %q", u.Rows)
	}
}

func TestWrap(t *testing.T) {
	got := Wrap("Hungarian (001) Fig. 5: the fastest other, cpu/jv, takes 0.834x of cpu/paper's time", 30, "    ")
	for _, l := range strings.Split(got, "\n") {
		if runewidth.StringWidth(l) > 30 {
			t.Errorf("line %q wider than 30", l)
		}
	}
	if !strings.Contains(got, "0.834x") || !strings.Contains(got, "\n    ") {
		t.Errorf("Wrap = %q", got)
	}
}
