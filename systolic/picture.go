package systolic

import (
	"context"
	"fmt"
	"strings"

	"github.com/semibench/semibench/semiring"
)

// picture draws the array at step t as text, in the manner of the paper's
// Fig. 4: every processor at its place in the diamond (top corner at the
// top, input border at the bottom), labelled with its type and with the
// elements on the connections leaving it, "ij^" going up, "ij\" going
// down-right and "ij/" going down-left (the paper draws a value in the
// processor its connection comes from). Elements are 1-based; with
// several matrices in the stream the matrix number follows a colon.
func picture[T any](arr *Array, t int, get func(idx int) (ups []reg[T], dr, dl reg[T]), n int) string {
	s := n + 1
	nn := n * n
	label := func(r reg[T], dir string) string {
		m, e := int(r.id)/nn, int(r.id)%nn
		i, j := e/n+1, e%n+1
		var b string
		if n <= 9 {
			b = fmt.Sprintf("%d%d", i, j)
		} else {
			b = fmt.Sprintf("%d,%d", i, j)
		}
		if m > 0 {
			b += fmt.Sprintf(":%d", m)
		}
		return b + dir
	}
	cells := make([]string, s*s)
	width := 0
	for p := 0; p <= n; p++ {
		for q := 0; q <= n; q++ {
			idx := p*s + q
			ups, dr, dl := get(idx)
			parts := []string{arr.kinds[idx].String()}
			for _, u := range ups {
				if u.id >= 0 {
					parts = append(parts, label(u, "^"))
				}
			}
			if dr.id >= 0 {
				parts = append(parts, label(dr, `\`))
			}
			if dl.id >= 0 {
				parts = append(parts, label(dl, "/"))
			}
			cells[idx] = strings.Join(parts, " ")
			width = max(width, len(cells[idx]))
		}
	}
	width += 2
	var sb strings.Builder
	fmt.Fprintf(&sb, "step %d: n=%d, %d processors; top corner C, left corner E; ^ up, \\ down-right, / down-left\n", t, n, s*s)
	for h := 2 * n; h >= 0; h-- {
		line := make([]byte, (2*n+1)*width)
		for i := range line {
			line[i] = ' '
		}
		for p := 0; p <= n; p++ {
			q := h - p
			if q < 0 || q > n {
				continue
			}
			x := p - q + n
			c := cells[p*s+q]
			pad := (width - len(c)) / 2
			copy(line[x*width+pad:], c)
		}
		sb.WriteString(strings.TrimRight(string(line), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Picture returns the array GJE0 for an n×n matrix at the given step, as
// text (see Config.Snapshot): Picture(4, 11) is the paper's Fig. 4.
func Picture(n, step int) (string, error) {
	if step < 1 || step > 7*n-2 {
		return "", fmt.Errorf("systolic: step %d outside 1..%d (7n-2)", step, 7*n-2)
	}
	run, err := Simulate(context.Background(), n, SemiringOps(semiring.Boolean{}), [][]bool{make([]bool, n*n)}, Config{Tracks: 1, Snapshot: step})
	if err != nil {
		return "", err
	}
	return run.Picture, nil
}
