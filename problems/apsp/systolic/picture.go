package systolic

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/semibench/semibench/problems/apsp/semiring"
)

// datum is one element on a connection leaving a processor, for pictures.
type datum struct {
	label string // "ij", "i,j" for n > 9, ":m" appended for matrix m > 0
	dir   byte   // '^' up, '\\' down-right, '/' down-left
}

// snapshot collects, per processor, the elements on its outgoing
// connections (the paper draws a value in the processor its connection
// comes from).
func snapshot[T any](arr *Array, get func(idx int) (ups []reg[T], dr, dl reg[T])) [][]datum {
	n := arr.N
	nn := n * n
	label := func(r reg[T]) string {
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
		return b
	}
	cells := make([][]datum, len(arr.kinds))
	for idx := range cells {
		ups, dr, dl := get(idx)
		for _, u := range ups {
			if u.id >= 0 {
				cells[idx] = append(cells[idx], datum{label(u), '^'})
			}
		}
		if dr.id >= 0 {
			cells[idx] = append(cells[idx], datum{label(dr), '\\'})
		}
		if dl.id >= 0 {
			cells[idx] = append(cells[idx], datum{label(dl), '/'})
		}
	}
	return cells
}

// textPicture draws the array at step t as text, in the manner of the
// paper's Fig. 4: every processor at its place in the diamond (top corner
// at the top, input border at the bottom), labelled with its type and with
// the elements on the connections leaving it, "ij^" going up, "ij\" going
// down-right and "ij/" going down-left. Elements are 1-based; with several
// matrices in the stream the matrix number follows a colon.
func textPicture(arr *Array, t int, cells [][]datum) string {
	n := arr.N
	s := n + 1
	text := make([]string, len(cells))
	width := 0
	for idx, ds := range cells {
		parts := []string{arr.kinds[idx].String()}
		for _, d := range ds {
			parts = append(parts, d.label+string(d.dir))
		}
		text[idx] = strings.Join(parts, " ")
		width = max(width, len(text[idx]))
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
			c := text[p*s+q]
			pad := (width - len(c)) / 2
			copy(line[x*width+pad:], c)
		}
		sb.WriteString(strings.TrimRight(string(line), " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// svgPicture draws the same as an SVG: processors as circles on the
// hexagonal grid (computing ones shaded), the connections as thin lines,
// and each element as a label with an arrow in its direction of travel.
func svgPicture(arr *Array, t int, cells [][]datum) string {
	n := arr.N
	s := n + 1
	const unit = 64.0
	pos := func(p, q int) (float64, float64) {
		x := (float64(p-q)*math.Sqrt(3)/2+float64(n)*math.Sqrt(3)/2)*unit + unit
		y := (float64(n)-float64(p+q)/2)*unit + unit
		return x, y
	}
	w := float64(n)*math.Sqrt(3)*unit + 2*unit
	h := float64(n)*unit + 2*unit
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="11">`+"\n", w, h+20)
	fmt.Fprintf(&b, `<text x="8" y="16">GJE0, n=%d, step %d (%d processors)</text>`+"\n", n, t, s*s)
	for p := 0; p <= n; p++ {
		for q := 0; q <= n; q++ {
			x, y := pos(p, q)
			for _, nb := range [][2]int{{p + 1, q + 1}, {p, q - 1}, {p - 1, q}} {
				if nb[0] >= 0 && nb[0] <= n && nb[1] >= 0 && nb[1] <= n {
					x2, y2 := pos(nb[0], nb[1])
					fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ccc"/>`+"\n", x, y, x2, y2)
				}
			}
		}
	}
	for p := 0; p <= n; p++ {
		for q := 0; q <= n; q++ {
			idx := p*s + q
			x, y := pos(p, q)
			fill := "#fff"
			if arr.kinds[idx].Computes() {
				fill = "#e8eef8"
			}
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%.0f" fill="%s" stroke="#666"/>`+"\n", x, y, unit*0.3, fill)
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#666" font-size="9">%s</text>`+"\n", x, y-unit*0.15, arr.kinds[idx])
			for k, d := range cells[idx] {
				arrow := map[byte]string{'^': "↑", '\\': "↘", '/': "↙"}[d.dir]
				fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s%s</text>`+"\n", x, y+unit*0.05+float64(k)*12, d.label, arrow)
			}
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// Picture returns the array GJE0 for an n×n matrix at the given step, as
// text (see Config.Snapshot): Picture(4, 11) is the paper's Fig. 4.
func Picture(n, step int) (string, error) {
	run, err := pictureRun(n, step)
	if err != nil {
		return "", err
	}
	return run.Picture, nil
}

// PictureSVG is Picture as an SVG drawing.
func PictureSVG(n, step int) (string, error) {
	run, err := pictureRun(n, step)
	if err != nil {
		return "", err
	}
	return run.PictureSVG, nil
}

func pictureRun(n, step int) (*Run[bool], error) {
	if step < 1 || step > 7*n-2 {
		return nil, fmt.Errorf("systolic: step %d outside 1..%d (7n-2)", step, 7*n-2)
	}
	return Simulate(context.Background(), n, SemiringOps(semiring.Boolean{}), [][]bool{make([]bool, n*n)}, Config{Tracks: 1, Snapshot: step})
}
