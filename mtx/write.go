package mtx

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Writer writes a coordinate real general Matrix Market file entry by entry.
// The entry count is declared up front, in the size line, and Close checks
// that exactly that many were written.
type Writer struct {
	w          *bufio.Writer
	rows, cols int
	nnz        int
	n          int
	buf        []byte
	err        error
}

// NewWriter writes the banner, the comments (each line prefixed with %) and
// the size line. Entries follow through Write or Write32; Close ends the
// file.
func NewWriter(w io.Writer, rows, cols, nnz int, comments ...string) (*Writer, error) {
	if rows < 0 || cols < 0 || nnz < 0 {
		return nil, fmt.Errorf("mtx: negative size %d x %d with %d entries", rows, cols, nnz)
	}
	mw := &Writer{w: bufio.NewWriterSize(w, 64<<10), rows: rows, cols: cols, nnz: nnz, buf: make([]byte, 0, 64)}
	mw.w.WriteString("%%MatrixMarket matrix coordinate real general\n")
	for _, c := range comments {
		for _, line := range strings.Split(c, "\n") {
			mw.w.WriteString("%")
			if line != "" {
				mw.w.WriteString(" ")
				mw.w.WriteString(line)
			}
			mw.w.WriteString("\n")
		}
	}
	fmt.Fprintf(mw.w, "%d %d %d\n", rows, cols, nnz)
	return mw, nil
}

// Write writes the entry (i, j) = v, 0-based, with the shortest decimal that
// reads back as the same float64.
func (w *Writer) Write(i, j int, v float64) error {
	return w.write(i, j, v, 64)
}

// Write32 writes the entry (i, j) = v, 0-based, with the shortest decimal
// that reads back as the same float32 (strconv.ParseFloat(text, 32)).
func (w *Writer) Write32(i, j int, v float32) error {
	return w.write(i, j, float64(v), 32)
}

func (w *Writer) write(i, j int, v float64, bits int) error {
	if w.err != nil {
		return w.err
	}
	switch {
	case i < 0 || i >= w.rows || j < 0 || j >= w.cols:
		w.err = fmt.Errorf("mtx: entry (%d, %d) outside the %d x %d matrix (0-based)", i, j, w.rows, w.cols)
	case w.n == w.nnz:
		w.err = fmt.Errorf("mtx: more than the %d entries declared", w.nnz)
	case math.IsNaN(v):
		w.err = fmt.Errorf("mtx: entry (%d, %d) is NaN", i, j)
	}
	if w.err != nil {
		return w.err
	}
	b := w.buf[:0]
	b = strconv.AppendInt(b, int64(i)+1, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(j)+1, 10)
	b = append(b, ' ')
	b = strconv.AppendFloat(b, v, 'g', -1, bits)
	b = append(b, '\n')
	w.buf = b
	if _, err := w.w.Write(b); err != nil {
		w.err = fmt.Errorf("mtx: writing: %w", err)
		return w.err
	}
	w.n++
	return nil
}

// Close flushes the file and checks that as many entries were written as
// declared. It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if w.n != w.nnz {
		w.err = fmt.Errorf("mtx: %d entries written, %d declared", w.n, w.nnz)
		return w.err
	}
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("mtx: writing: %w", err)
		return w.err
	}
	return nil
}

// Write writes a coordinate real general file holding entries (0-based) in
// the order given.
func Write(w io.Writer, rows, cols int, entries []Entry, comments ...string) error {
	mw, err := NewWriter(w, rows, cols, len(entries), comments...)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := mw.Write(e.I, e.J, e.V); err != nil {
			return err
		}
	}
	return mw.Close()
}
