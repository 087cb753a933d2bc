package report

import (
	"os"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"
	"golang.org/x/sys/unix"
)

// DefaultWidth is the width text tables fit when the output is not a
// terminal and COLUMNS is unset.
const DefaultWidth = 120

// minColumn is the narrowest a wrapped column gets: below it a table
// reads as a column of fragments.
const minColumn = 12

// TerminalWidth is the width text output should fit on f: COLUMNS when it
// holds a positive number, else the terminal's width when f is one, else
// DefaultWidth.
func TerminalWidth(f *os.File) int {
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if f != nil {
		if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
			return int(ws.Col)
		}
	}
	return DefaultWidth
}

// textWidth is the display width of s's widest line.
func textWidth(s string) int {
	w := 0
	for l := range strings.SplitSeq(s, "\n") {
		w = max(w, runewidth.StringWidth(l))
	}
	return w
}

// fitColumns wraps the cells of rows (and header) so that a text table of
// them is at most width characters wide: the widest wrappable column is
// narrowed first, one character at a time, never below the longest word
// it holds, its header's longest word or minColumn; a numeric column
// keeps its numbers on one line. A word longer than its column is broken only at a
// ',', '|', '/', ';' or '=' inside it, so a number is never cut; a table
// that cannot fit this way comes out as narrow as it can. width <= 0
// leaves the cells as they are.
func fitColumns(header []string, rows [][]string, numeric []bool, width int) ([]string, [][]string) {
	n := len(header)
	if width <= 0 || n == 0 {
		return header, rows
	}
	natural := make([]int, n)
	floor := make([]int, n)
	for c := range n {
		natural[c] = textWidth(header[c])
		floor[c] = longestWord(header[c])
		numbers := 0 // the widest number of the column
		for _, r := range rows {
			natural[c] = max(natural[c], textWidth(r[c]))
			floor[c] = max(floor[c], longestWord(r[c]))
			if isNumeric(strings.TrimSpace(r[c])) {
				numbers = max(numbers, textWidth(r[c]))
			}
		}
		if numeric[c] {
			floor[c] = max(numbers, floor[c]) // numbers on one line; words and the header may wrap
		} else {
			floor[c] = min(natural[c], max(floor[c], minColumn))
		}
	}
	// A row of the light style: "│ a │ b │" is the cells plus 3 per column
	// and 1.
	total := func(w []int) int {
		s := 1
		for _, x := range w {
			s += x + 3
		}
		return s
	}
	cols := append([]int(nil), natural...)
	for total(cols) > width {
		k := -1
		for c := range n {
			if cols[c] > floor[c] && (k < 0 || cols[c] > cols[k]) {
				k = c
			}
		}
		if k < 0 {
			break
		}
		cols[k]--
	}
	wrapRow := func(r []string) []string {
		out := make([]string, n)
		for c := range n {
			if cols[c] < natural[c] {
				out[c] = wrapText(r[c], cols[c])
			} else {
				out[c] = r[c]
			}
		}
		return out
	}
	wrapped := make([][]string, len(rows))
	for i, r := range rows {
		wrapped[i] = wrapRow(r)
	}
	return wrapRow(header), wrapped
}

// longestWord is the display width of the longest unbreakable piece of s:
// a space-separated word, or, in a word longer than minColumn, its
// longest piece between the marks breakWord breaks at.
func longestWord(s string) int {
	w := 0
	for _, word := range strings.Fields(s) {
		for _, piece := range breakWord(word, minColumn) {
			w = max(w, runewidth.StringWidth(piece))
		}
	}
	return w
}

// breakWord splits a word wider than width after each ',', '|', '/', ';'
// or '=' it holds (the pieces of an option list, a path or a parameter
// set), but a ',' or '/' between two digits (a number's thousands, a
// fraction stay whole); a shorter word, or one without such marks, is one
// piece.
func breakWord(word string, width int) []string {
	if runewidth.StringWidth(word) <= width {
		return []string{word}
	}
	var out []string
	start := 0
	for i, r := range word {
		digits := (r == ',' || r == '/') && i > 0 && i+1 < len(word) && isDigit(word[i-1]) && isDigit(word[i+1])
		if strings.ContainsRune(",|/;=", r) && !digits { // "2,097,024" and "6/25" stay whole
			out = append(out, word[start:i+1])
			start = i + 1
		}
	}
	if start < len(word) {
		out = append(out, word[start:])
	}
	return out
}

// wrapText wraps each line of s into lines of at most width, greedily by
// words, a word wider than width broken by breakWord and its pieces
// packed as words.
func wrapText(s string, width int) string {
	var lines []string
	for para := range strings.SplitSeq(s, "\n") {
		line, lw := "", 0
		flush := func() {
			lines = append(lines, line)
			line, lw = "", 0
		}
		for _, word := range strings.Fields(para) {
			pieces := breakWord(word, width)
			for j, p := range pieces {
				pw := runewidth.StringWidth(p)
				sep := 1
				if lw == 0 || j > 0 {
					sep = 0 // a word's pieces join without a space
				}
				if lw > 0 && lw+sep+pw > width {
					flush()
					sep = 0
				}
				if sep == 1 {
					line += " "
				}
				line += p
				lw += sep + pw
			}
		}
		flush()
	}
	return strings.Join(lines, "\n")
}

// TextWidth is the width of t's text rendering with no column wrapped.
func (t *Table) TextWidth() int {
	header, rows := t.grid()
	w := 1
	for c := range header {
		cw := textWidth(header[c])
		for _, r := range rows {
			cw = max(cw, textWidth(r[c]))
		}
		w += cw + 3
	}
	return w
}

// Transposed is t with rows and columns swapped: the header becomes the
// first column and each row a column headed by its first cell. A wide
// table of few rows (counts per paper and verdict) reads better so.
func (t *Table) Transposed() *Table {
	header, rows := t.grid()
	u := &Table{Title: t.Title, Notes: t.Notes, Width: t.Width}
	if len(header) == 0 {
		return u
	}
	u.Header = []string{header[0]}
	for _, r := range rows {
		u.Header = append(u.Header, r[0])
	}
	for c := 1; c < len(header); c++ {
		row := []string{header[c]}
		for _, r := range rows {
			row = append(row, r[c])
		}
		u.Rows = append(u.Rows, row)
	}
	return u
}

// Wrap wraps s into lines of at most width characters, words kept whole
// (a long option list or path broken after its ',', '|', '/', ';' or '='),
// every line after the first starting with indent.
func Wrap(s string, width int, indent string) string {
	iw := runewidth.StringWidth(indent)
	if width-iw < minColumn {
		return s
	}
	lines := strings.Split(wrapText(s, width-iw), "\n")
	return strings.Join(lines, "\n"+indent)
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }
