package treefix

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ErrInput is wrapped by every error Solve returns for a bad input file.
var ErrInput = errors.New("bad treefix input")

// Input is a parsed treefix input file.
type Input struct {
	Parent []int32
	// Weights as written; Int is set when every weight is an integer (then
	// IntW holds them).
	W    []float64
	IntW []int64
	Int  bool
	// Line is the file line of each vertex, for error messages.
	Line []int
}

// maxLine is the longest input line accepted (comment lines excepted:
// they may be of any length).
const maxLine = 1 << 16

// lineReader reads lines of any length, keeping at most maxLine bytes of
// each.
type lineReader struct {
	br   *bufio.Reader
	line int // lines read so far
}

// next returns the next line (without its end) and whether it was longer
// than maxLine, in which case only its first maxLine bytes are returned; it
// returns io.EOF after the last line. A long line is read to its end only
// while it may be a comment or blank (what is kept of it is white space,
// or starts with '#'): a data line is cut at maxLine, so that an input
// without line ends (/dev/zero) is refused, not read for ever.
func (lr *lineReader) next() (text []byte, long bool, err error) {
	var buf []byte
	total := 0
	for {
		chunk, err := lr.br.ReadSlice('\n')
		total += len(chunk)
		if room := maxLine + 2 - len(buf); room > 0 {
			buf = append(buf, chunk[:min(len(chunk), room)]...)
		}
		if t := bytes.TrimSpace(buf); total > maxLine+2 && len(t) > 0 && t[0] != '#' {
			lr.line++
			return buf[:maxLine], true, nil // a data line too long: the rest unread
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && total == 0:
			return nil, false, io.EOF
		case err != nil && err != io.EOF:
			return nil, false, err
		}
		lr.line++
		text = bytes.TrimRight(buf, "\r\n")
		long = total > maxLine+2 || len(text) > maxLine
		return text[:min(len(text), maxLine)], long, nil
	}
}

// parseWeight reads a weight: f32 rounds it to float32. An integer
// literal is also returned as an int64 (isInt) unless f32 is set; one
// beyond int64 is an error, as in solve lap, since its float64 value would
// no longer be exact.
func parseWeight(s string, f32 bool) (x float64, k int64, isInt bool, err error) {
	bits := 64
	if f32 {
		bits = 32
	}
	if !f32 && isIntLiteral(s) {
		k, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, 0, false, fmt.Errorf("integer weight %s does not fit in int64 (write it with an exponent, e.g. %.6g, to compute in float64)", clip(s), mustFloat(s))
		}
		return float64(k), k, true, nil
	}
	x, err = strconv.ParseFloat(s, bits)
	switch {
	case err == nil && (math.IsInf(x, 0) || math.IsNaN(x)):
		return 0, 0, false, fmt.Errorf("weight %q is not a finite number", clip(s))
	case errors.Is(err, strconv.ErrRange) && math.IsInf(x, 0):
		return 0, 0, false, fmt.Errorf("weight %s is beyond the float%d range", clip(s), bits)
	case errors.Is(err, strconv.ErrRange):
		return x, 0, false, nil // below the smallest subnormal: the nearest value, 0
	case err != nil:
		return 0, 0, false, fmt.Errorf("weight %q is not a number", clip(s))
	}
	return x, 0, false, nil
}

// mustFloat is s as a float64 (s is a decimal integer literal).
func mustFloat(s string) float64 {
	x, _ := strconv.ParseFloat(s, 64)
	return x
}

// isIntLiteral reports whether s is an optionally signed run of digits.
func isIntLiteral(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// ReadInput parses a treefix input: one line "parent weight" per vertex,
// vertices 0..n-1 in file order, parent -1 for the root; blank lines and
// lines starting with '#' (of any length) are skipped; any other line is
// refused past 64 KiB, without reading the rest of it. With f32, weights
// are rounded to float32 as they are read. It checks the tree (one root,
// parents in range, no cycle); every error wraps ErrInput and names the
// file (name) and line.
func ReadInput(r io.Reader, name string, f32 bool) (*Input, error) {
	lr := &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
	in := &Input{Int: !f32}
	bad := func(l int, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %w: %s", name, l, ErrInput, fmt.Sprintf(format, a...))
	}
	for {
		text, long, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, bad(lr.line+1, "reading: %v", err)
		}
		s := strings.TrimSpace(string(text))
		if s == "" || s[0] == '#' {
			continue
		}
		if long {
			return nil, bad(lr.line, "line longer than %d bytes (only comment lines, starting with #, may be longer)", maxLine)
		}
		line := lr.line
		f := strings.Fields(s)
		if len(f) != 2 {
			return nil, bad(line, "want 'parent weight', got %d fields in %q", len(f), clip(s))
		}
		p, err := strconv.ParseInt(f[0], 10, 32)
		if err != nil {
			return nil, bad(line, "parent %q is not an integer", clip(f[0]))
		}
		x, k, isInt, err := parseWeight(f[1], f32)
		if err != nil {
			return nil, bad(line, "%v", err)
		}
		if len(in.Parent) >= MaxN {
			return nil, bad(line, "more than %d vertices", MaxN)
		}
		if in.Int {
			if isInt {
				in.IntW = append(in.IntW, k)
			} else {
				in.Int, in.IntW = false, nil
			}
		}
		in.Parent = append(in.Parent, int32(p))
		in.W = append(in.W, x)
		in.Line = append(in.Line, line)
	}
	if len(in.Parent) == 0 {
		return nil, fmt.Errorf("%s: %w: no vertices", name, ErrInput)
	}
	n := len(in.Parent)
	for v, p := range in.Parent {
		if p < -1 || int(p) >= n {
			return nil, bad(in.Line[v], "vertex %d: parent %d out of range (-1 for the root, else 0..%d)", v, p, n-1)
		}
	}
	if err := Validate(in.Parent); err != nil {
		var se *ShapeError
		if !errors.As(err, &se) {
			return nil, fmt.Errorf("%s: %w: %w", name, ErrInput, err)
		}
		switch {
		case errors.Is(err, ErrTwoRoots):
			return nil, bad(in.Line[se.Vertex], "vertex %d is a second root (vertex %d on line %d is the first)", se.Vertex, se.Other, in.Line[se.Other])
		case errors.Is(err, ErrNoRoot):
			return nil, fmt.Errorf("%s: %w: no root (no vertex has parent -1), so the parent array has a cycle", name, ErrInput)
		case errors.Is(err, ErrCycle):
			// walk up from the unreachable vertex onto its cycle
			v := se.Vertex
			for range n {
				v = int(in.Parent[v])
			}
			low := v // report the cycle from its lowest vertex
			for u := int(in.Parent[v]); u != v; u = int(in.Parent[u]) {
				low = min(low, u)
			}
			v = low
			cyc := []string{strconv.Itoa(v)}
			for u := int(in.Parent[v]); u != v && len(cyc) < 8; u = int(in.Parent[u]) {
				cyc = append(cyc, strconv.Itoa(u))
			}
			return nil, bad(in.Line[v], "vertex %d is on a cycle of the parent array (%s -> ...)", v, strings.Join(cyc, " -> "))
		}
		return nil, bad(in.Line[max(se.Vertex, 0)], "%v", se)
	}
	return in, nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// Solve reads a treefix input from r (ReadInput; name labels errors), runs
// op ("rootfix" or "leaffix") with implementation im on all cores
// (Compute), and writes one value per line in vertex order to w
// (Sums.Write); nothing is written on an error.
func Solve(ctx context.Context, r io.Reader, name, op string, im Impl, f32 bool, w io.Writer) error {
	o, err := ParseOp(op)
	if err != nil {
		return err
	}
	in, err := ReadInput(r, name, f32)
	if err != nil {
		return err
	}
	s, err := Compute(ctx, in, name, o, im, f32)
	if err != nil {
		return err
	}
	return s.Write(w)
}

// Sums is the answer of `semibench solve treefix`: op's sum at every
// vertex, in the type it was computed in (one of Int, F32, F64 is set).
type Sums struct {
	In   *Input
	Tree *Tree
	Op   Op
	Impl string // the implementation that computed them, whose error bound Check applies
	Int  []int64
	F32  []float32
	F64  []float64
}

// Compute runs op on the tree of in with im on all cores. Integer weights
// are computed in int64 (exact in every implementation); otherwise in
// float64, or float32 when f32 is set (weights rounded to float32 as
// read). A sum that does not fit its type (an int64 sum beyond ±2^63, a
// vertex's float sum beyond the float's range) is an error wrapping
// ErrInput and ErrOverflow that names the vertex (as the file numbers
// them, from 0) and its line (name is the file); where im's own
// intermediate sums left the float type though every vertex's sum fits,
// the error wraps ErrIntermediate instead (the input is sound).
func Compute(ctx context.Context, in *Input, name string, op Op, im Impl, f32 bool) (*Sums, error) {
	t, err := NewTree(in.Parent)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	s := &Sums{In: in, Tree: t, Op: op, Impl: im.Name}
	switch {
	case in.Int:
		if err := checkInt64(in, name, t, op); err != nil {
			return nil, err
		}
		s.Int = make([]int64, t.N())
		err = im.Int64(t, 0)(ctx, op, in.IntW, s.Int, nil)
	case f32:
		w32 := make([]float32, t.N())
		for i, x := range in.W {
			w32[i] = float32(x)
		}
		s.F32 = make([]float32, t.N())
		err = im.Float32(t, 0)(ctx, op, w32, s.F32, nil)
		if err == nil {
			return s, checkFloat(in, name, t, op, im.Name, s.F32)
		}
	default:
		s.F64 = make([]float64, t.N())
		err = im.Float64(t, 0)(ctx, op, in.W, s.F64, nil)
		if err == nil {
			return s, checkFloat(in, name, t, op, im.Name, s.F64)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// Write writes one value per line, in vertex order: integers as such,
// floats in the shortest text that reads back as the same value of their
// type.
func (s *Sums) Write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var buf []byte
	for v := range s.Tree.N() {
		switch {
		case s.Int != nil:
			buf = strconv.AppendInt(buf[:0], s.Int[v], 10)
		case s.F32 != nil:
			buf = strconv.AppendFloat(buf[:0], float64(s.F32[v]), 'g', -1, 32)
		default:
			buf = strconv.AppendFloat(buf[:0], s.F64[v], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the treefix result: %w", err)
	}
	return nil
}
