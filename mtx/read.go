package mtx

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/semibench/semibench/internal/decimal"
)

// Formats, fields and the symmetry this package understands, as they are
// spelled in a Matrix Market header (lower case).
const (
	FormatCoordinate = "coordinate"
	FormatArray      = "array"
	FieldReal        = "real"
	FieldInteger     = "integer"
	SymmetryGeneral  = "general"
)

// Sentinel errors wrapped by every *Error, for errors.Is.
var (
	ErrHeader      = errors.New("bad Matrix Market header")
	ErrUnsupported = errors.New("unsupported Matrix Market variant")
	ErrSize        = errors.New("bad size line")
	ErrEntry       = errors.New("malformed entry")
	ErrRange       = errors.New("index out of range")
	ErrCount       = errors.New("entry count differs from the size line")
	ErrDuplicate   = errors.New("duplicate entry")
)

// MaxLineBytes is the longest line a reader accepts.
const MaxLineBytes = 1 << 20

// Error is a reading error at a line of a named file.
type Error struct {
	File string // the name the caller passed
	Line int    // 1-based line number
	Err  error  // wraps one of the sentinel errors
}

// Error formats the error as "file:line: message".
func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Header is what the banner and the size line of a file declare.
type Header struct {
	Format   string // FormatCoordinate or FormatArray
	Field    string // FieldReal or FieldInteger
	Symmetry string // SymmetryGeneral
	Rows     int
	Cols     int
	// NNZ is the number of entry lines the file declares: the third number
	// of a coordinate size line, Rows*Cols for an array.
	NNZ int
}

// Entry is one matrix element with 0-based indices.
type Entry struct {
	I, J int
	V    float64
}

// Matrix is a whole file in memory.
type Matrix struct {
	Header
	// Entries holds a coordinate file's entries in file order (a cell
	// listed twice is an error); nil for an array file.
	Entries []Entry
	// Data holds an array file's Rows*Cols values, column-major
	// (element (i, j) at Data[j*Rows+i]); nil for a coordinate file.
	Data []float64
}

// Diagonal returns the diagonal of a coordinate file's matrix, with absent
// for the cells the file does not list (min(Rows, Cols) values).
func (m *Matrix) Diagonal(absent float64) []float64 {
	d := make([]float64, min(m.Rows, m.Cols))
	for i := range d {
		d[i] = absent
	}
	for _, e := range m.Entries {
		if e.I == e.J && e.I < len(d) {
			d[e.I] = e.V
		}
	}
	return d
}

// Read reads a whole Matrix Market file. name is used in error messages only.
func Read(r io.Reader, name string) (*Matrix, error) {
	s, err := NewScanner(r, name)
	if err != nil {
		return nil, err
	}
	m := &Matrix{Header: s.Header()}
	// Never trust the declared count for an allocation: a corrupt size line
	// must not exhaust memory before the short file is noticed.
	capHint := min(m.NNZ, 1<<16)
	if m.Format == FormatArray {
		m.Data = make([]float64, 0, capHint)
	} else {
		m.Entries = make([]Entry, 0, capHint)
	}
	for {
		e, err := s.Next()
		if err == io.EOF {
			return m, nil
		}
		if err != nil {
			return nil, err
		}
		if m.Format == FormatArray {
			m.Data = append(m.Data, e.V)
		} else {
			m.Entries = append(m.Entries, e)
		}
	}
}

// Scanner reads a Matrix Market file entry by entry.
type Scanner struct {
	name     string
	sc       *bufio.Scanner
	line     int // lines consumed so far
	sizeLine int // line of the size line
	h        Header
	read     int // entries returned so far
	bits     int // bit size for strconv.ParseFloat
	done     bool
	fields   [6][]byte
	seen     cells // the line of each coordinate entry read, by cell
}

// NewScanner reads the header and the size line of a file and returns a
// scanner positioned at the first entry. name is used in error messages only.
func NewScanner(r io.Reader, name string) (*Scanner, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	s := &Scanner{name: name, sc: sc, bits: 64}
	if err := s.readHeader(); err != nil {
		return nil, err
	}
	if err := s.readSize(); err != nil {
		return nil, err
	}
	return s, nil
}

// Header returns what the file declares.
func (s *Scanner) Header() Header { return s.h }

// Errorf returns an *Error at the line last read, wrapping the formatted
// error (use %w in format to wrap a further error).
func (s *Scanner) Errorf(format string, args ...any) error {
	return &Error{File: s.name, Line: s.line, Err: fmt.Errorf(format, args...)}
}

// SetBitSize sets the precision values are parsed to: 64 (the default) or
// 32, in which case every value is the float32 nearest to the decimal text
// (rounded once, as strconv.ParseFloat(text, 32) does) and values beyond the
// float32 range are refused. Other sizes are treated as 64.
func (s *Scanner) SetBitSize(bits int) {
	if bits == 32 {
		s.bits = 32
	} else {
		s.bits = 64
	}
}

func (s *Scanner) errAt(line int, sentinel error, format string, args ...any) error {
	return &Error{File: s.name, Line: line, Err: fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))}
}

// nextLine returns the next line that is neither blank nor a comment (or,
// with raw, the next line whatever it is), or io.EOF.
func (s *Scanner) nextLine(raw bool) ([]byte, error) {
	for s.sc.Scan() {
		s.line++
		b := s.sc.Bytes()
		if raw {
			return b, nil
		}
		t := bytes.TrimLeft(b, " \t\r\v\f")
		if len(t) == 0 || t[0] == '%' {
			continue
		}
		return b, nil
	}
	if err := s.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, s.errAt(s.line+1, ErrEntry, "line longer than %d bytes", MaxLineBytes)
		}
		return nil, &Error{File: s.name, Line: s.line + 1, Err: fmt.Errorf("reading: %w", err)}
	}
	return nil, io.EOF
}

// split cuts b into at most len(s.fields) whitespace-separated fields and
// returns how many there are (more than len(s.fields) reads as one more).
func (s *Scanner) split(b []byte) int {
	n := 0
	for {
		for len(b) > 0 && isSpace(b[0]) {
			b = b[1:]
		}
		if len(b) == 0 {
			return n
		}
		if n == len(s.fields) {
			return n + 1
		}
		k := 0
		for k < len(b) && !isSpace(b[k]) {
			k++
		}
		s.fields[n] = b[:k]
		n++
		b = b[k:]
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

func (s *Scanner) readHeader() error {
	b, err := s.nextLine(true)
	if err == io.EOF {
		return s.errAt(1, ErrHeader, "empty file, expected a %%%%MatrixMarket banner")
	}
	if err != nil {
		return err
	}
	n := s.split(b)
	if n == 0 || !bytes.EqualFold(s.fields[0], []byte("%%MatrixMarket")) {
		return s.errAt(s.line, ErrHeader, "first line must start with %%%%MatrixMarket, got %q", clip(b))
	}
	if n != 5 {
		return s.errAt(s.line, ErrHeader, "banner needs 5 words (%%%%MatrixMarket matrix FORMAT FIELD SYMMETRY), got %d", n)
	}
	object := string(bytes.ToLower(s.fields[1]))
	format := string(bytes.ToLower(s.fields[2]))
	field := string(bytes.ToLower(s.fields[3]))
	sym := string(bytes.ToLower(s.fields[4]))
	if object != "matrix" {
		return s.errAt(s.line, ErrUnsupported, "object %q (only matrix is supported)", object)
	}
	switch format {
	case FormatCoordinate, FormatArray:
	default:
		return s.errAt(s.line, ErrUnsupported, "format %q (only coordinate and array are supported)", format)
	}
	switch field {
	case FieldReal, FieldInteger:
	default:
		return s.errAt(s.line, ErrUnsupported, "field %q (only real and integer are supported)", field)
	}
	if sym != SymmetryGeneral {
		return s.errAt(s.line, ErrUnsupported, "symmetry %q (only general is supported)", sym)
	}
	s.h = Header{Format: format, Field: field, Symmetry: sym}
	return nil
}

func (s *Scanner) readSize() error {
	b, err := s.nextLine(false)
	if err == io.EOF {
		return s.errAt(s.line+1, ErrSize, "file ends before the size line")
	}
	if err != nil {
		return err
	}
	s.sizeLine = s.line
	want, what := 3, "rows cols entries"
	if s.h.Format == FormatArray {
		want, what = 2, "rows cols"
	}
	if n := s.split(b); n != want {
		return s.errAt(s.line, ErrSize, "want %d numbers (%s), got %q", want, what, clip(b))
	}
	var v [3]int
	for k := 0; k < want; k++ {
		x, ok := parseCount(s.fields[k])
		if !ok {
			return s.errAt(s.line, ErrSize, "%s", badCount(s.fields[k], "a non-negative integer"))
		}
		v[k] = x
	}
	s.h.Rows, s.h.Cols = v[0], v[1]
	if s.h.Format == FormatArray {
		if v[1] != 0 && v[0] > math.MaxInt/v[1] {
			return s.errAt(s.line, ErrSize, "%d x %d elements overflow", v[0], v[1])
		}
		s.h.NNZ = v[0] * v[1]
	} else {
		s.h.NNZ = v[2]
		s.seen.init(uint64(v[0])*uint64(v[1]), v[2])
	}
	return nil
}

// cells records the line of the first entry of each cell (i·cols + j) of a
// coordinate file, to refuse a cell listed twice naming both lines. A
// matrix with at most 4 cells per declared entry keeps the lines densely,
// in 4 KiB pages allocated as entries reach them (nothing is allocated on
// the size line's word beyond the page table); a sparser one keeps them in
// a map that grows with the entries read.
type cells struct {
	pages []*[pageCells]uint32 // dense: the lines by page, 0 for a cell not seen
	m     map[uint64]uint32
}

const pageCells = 1 << 10

func (c *cells) init(n uint64, nnz int) {
	if n <= 4*uint64(nnz) && n <= 1<<31 { // a page table of at most 16 MiB
		c.pages = make([]*[pageCells]uint32, (n+pageCells-1)/pageCells)
	} else {
		c.m = make(map[uint64]uint32, min(nnz, 1<<16))
	}
}

// first records line for cell k and returns the line of k's earlier entry,
// or 0 if there was none. Lines beyond 2^32 - 1 are recorded as 2^32 - 1.
func (c *cells) first(k uint64, line int) int {
	l := uint32(min(line, math.MaxUint32))
	if c.pages != nil {
		p := c.pages[k/pageCells]
		if p == nil {
			p = new([pageCells]uint32)
			c.pages[k/pageCells] = p
		}
		if k0 := p[k%pageCells]; k0 != 0 {
			return int(k0)
		}
		p[k%pageCells] = l
		return 0
	}
	if k0, ok := c.m[k]; ok {
		return int(k0)
	}
	c.m[k] = l
	return 0
}

// parseCount parses a non-negative decimal integer that fits in an int32, so
// that index arithmetic on it cannot overflow.
func parseCount(b []byte) (int, bool) {
	if len(b) > 0 && b[0] == '+' {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	x := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		x = x*10 + int(c-'0')
	}
	if x > math.MaxInt32 {
		return 0, false
	}
	return x, true
}

// badCount says why parseCount refused b: too large for this reader (a
// run of digits), or not want at all.
func badCount(b []byte, want string) string {
	digits := bytes.TrimPrefix(b, []byte("+"))
	if len(digits) > 0 && len(bytes.Trim(digits, "0123456789")) == 0 {
		return fmt.Sprintf("%s is larger than %d, the largest size or index this reader takes", clip(b), math.MaxInt32)
	}
	return fmt.Sprintf("%q is not %s", clip(b), want)
}

// Next returns the next entry with 0-based indices. For an array file the
// entries come in column-major order. After the last declared entry it
// checks that nothing but blank and comment lines follows and returns
// io.EOF.
func (s *Scanner) Next() (Entry, error) {
	if s.done {
		return Entry{}, io.EOF
	}
	b, err := s.nextLine(false)
	if err == io.EOF {
		if s.read < s.h.NNZ {
			return Entry{}, s.errAt(s.line+1, ErrCount, "file ends after %d of the %d entries declared on line %d", s.read, s.h.NNZ, s.sizeLine)
		}
		s.done = true
		return Entry{}, io.EOF
	}
	if err != nil {
		return Entry{}, err
	}
	if s.read == s.h.NNZ {
		return Entry{}, s.errAt(s.line, ErrCount, "more entries than the %d declared on line %d", s.h.NNZ, s.sizeLine)
	}
	var e Entry
	n := s.split(b)
	if s.h.Format == FormatArray {
		if n != 1 {
			return Entry{}, s.errAt(s.line, ErrEntry, "want one value per line in an array file, got %q", clip(b))
		}
		e.I, e.J = s.read%s.h.Rows, s.read/s.h.Rows
		if e.V, err = s.value(s.fields[0]); err != nil {
			return Entry{}, err
		}
	} else {
		if n != 3 {
			return Entry{}, s.errAt(s.line, ErrEntry, "want \"row col value\", got %q", clip(b))
		}
		i, ok := parseCount(s.fields[0])
		if !ok {
			return Entry{}, s.errAt(s.line, ErrEntry, "row index %s", badCount(s.fields[0], "a positive integer"))
		}
		j, ok := parseCount(s.fields[1])
		if !ok {
			return Entry{}, s.errAt(s.line, ErrEntry, "column index %s", badCount(s.fields[1], "a positive integer"))
		}
		if i < 1 || i > s.h.Rows {
			return Entry{}, s.errAt(s.line, ErrRange, "row %d not in 1..%d", i, s.h.Rows)
		}
		if j < 1 || j > s.h.Cols {
			return Entry{}, s.errAt(s.line, ErrRange, "column %d not in 1..%d", j, s.h.Cols)
		}
		e.I, e.J = i-1, j-1
		if k := s.seen.first(uint64(e.I)*uint64(s.h.Cols)+uint64(e.J), s.line); k != 0 {
			return Entry{}, &Error{File: s.name, Line: s.line, Err: fmt.Errorf("%w (%d, %d), first at line %d", ErrDuplicate, i, j, k)}
		}
		if e.V, err = s.value(s.fields[2]); err != nil {
			return Entry{}, err
		}
	}
	s.read++
	return e, nil
}

func (s *Scanner) value(b []byte) (float64, error) {
	integer := decimal.IsInteger(b)
	if s.h.Field == FieldInteger && !integer {
		return 0, s.errAt(s.line, ErrEntry, "value %q is not an integer", clip(b))
	}
	x, err := strconv.ParseFloat(string(b), s.bits)
	if integer && err == nil && !exact(b, x, s.bits) {
		// An integer is the user's exact value: never round it.
		return 0, s.errAt(s.line, ErrEntry, "integer %s is not exactly representable in float%d (the nearest is %s; integers beyond ±2^%d are not all)",
			clip(b), s.bits, strconv.FormatFloat(x, 'f', -1, 64), map[int]int{32: 24, 64: 53}[s.bits])
	}
	if err != nil {
		if errors.Is(err, strconv.ErrRange) && !math.IsInf(x, 0) {
			return x, nil // underflow to zero or a subnormal: a valid nearest value
		}
		if errors.Is(err, strconv.ErrRange) {
			return 0, s.errAt(s.line, ErrEntry, "value %q is out of the float%d range", clip(b), s.bits)
		}
		return 0, s.errAt(s.line, ErrEntry, "value %q is not a number", clip(b))
	}
	if math.IsNaN(x) {
		return 0, s.errAt(s.line, ErrEntry, "value %q is NaN", clip(b))
	}
	return x, nil
}

// exact reports whether x, parsed from the decimal integer b to bits
// (32 or 64), is its value exactly (an integer of 15 digits or fewer
// always is in float64, of 7 or fewer in float32).
func exact(b []byte, x float64, bits int) bool {
	digits := len(bytes.TrimLeft(bytes.TrimLeft(b, "+-"), "0"))
	if digits <= 7 || (bits == 64 && digits <= 15) {
		return true
	}
	want, ok := new(big.Int).SetString(strings.TrimPrefix(string(b), "+"), 10)
	if !ok || math.IsInf(x, 0) {
		return false
	}
	got, _ := new(big.Float).SetFloat64(x).Int(nil)
	return got.Cmp(want) == 0
}

// clip shortens text quoted in messages.
func clip(b []byte) string {
	const max = 60
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
