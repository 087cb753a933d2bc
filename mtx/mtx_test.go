package mtx

import (
	"bytes"
	"errors"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestReadCoordinate(t *testing.T) {
	in := `%%MatrixMarket matrix coordinate real general
% a comment

%another comment
3 4 3
1 1 1.5
  3 4 -2e3
% comment between entries

2 2 0
`
	m, err := Read(strings.NewReader(in), "a.mtx")
	if err != nil {
		t.Fatal(err)
	}
	want := &Matrix{
		Header:  Header{Format: FormatCoordinate, Field: FieldReal, Symmetry: SymmetryGeneral, Rows: 3, Cols: 4, NNZ: 3},
		Entries: []Entry{{0, 0, 1.5}, {2, 3, -2000}, {1, 1, 0}},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("got %+v, want %+v", m, want)
	}
}

func TestReadIntegerAndCase(t *testing.T) {
	in := "%%matrixmarket MATRIX Coordinate INTEGER General\r\n2 2 2\r\n1 2 -7\r\n2 1 +3\r\n"
	m, err := Read(strings.NewReader(in), "b.mtx")
	if err != nil {
		t.Fatal(err)
	}
	if m.Field != FieldInteger || len(m.Entries) != 2 || m.Entries[0] != (Entry{0, 1, -7}) || m.Entries[1] != (Entry{1, 0, 3}) {
		t.Fatalf("got %+v", m)
	}
}

func TestReadArray(t *testing.T) {
	in := "%%MatrixMarket matrix array real general\n% c\n2 3\n1\n2\n3\n\n4\n5\n-inf\n"
	m, err := Read(strings.NewReader(in), "c.mtx")
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 2 || m.Cols != 3 || m.NNZ != 6 || m.Entries != nil {
		t.Fatalf("header %+v", m.Header)
	}
	want := []float64{1, 2, 3, 4, 5, math.Inf(-1)}
	if !reflect.DeepEqual(m.Data, want) {
		t.Fatalf("data %v, want %v", m.Data, want)
	}
	// The scanner gives the indices of the column-major order.
	s, err := NewScanner(strings.NewReader(in), "c.mtx")
	if err != nil {
		t.Fatal(err)
	}
	var got [][2]int
	for {
		e, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, [2]int{e.I, e.J})
	}
	if wantIJ := [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}; !reflect.DeepEqual(got, wantIJ) {
		t.Fatalf("indices %v, want %v", got, wantIJ)
	}
}

func TestReadEmptyMatrix(t *testing.T) {
	m, err := Read(strings.NewReader("%%MatrixMarket matrix coordinate real general\n0 0 0\n"), "e.mtx")
	if err != nil || m.Rows != 0 || len(m.Entries) != 0 {
		t.Fatalf("got %+v, %v", m, err)
	}
}

// TestReadErrors covers every error: each names the file and the line and
// wraps its sentinel.
func TestReadErrors(t *testing.T) {
	const coo = "%%MatrixMarket matrix coordinate real general\n"
	const arr = "%%MatrixMarket matrix array real general\n"
	tests := []struct {
		name     string
		in       string
		sentinel error
		line     int
		contains string
	}{
		{"empty file", "", ErrHeader, 1, "empty file"},
		{"no banner", "3 3 1\n1 1 1\n", ErrHeader, 1, "%%MatrixMarket"},
		{"short banner", "%%MatrixMarket matrix coordinate real\n", ErrHeader, 1, "5 words"},
		{"long banner", "%%MatrixMarket matrix coordinate real general extra\n", ErrHeader, 1, "5 words"},
		{"vector object", "%%MatrixMarket vector coordinate real general\n", ErrUnsupported, 1, "object"},
		{"bad format", "%%MatrixMarket matrix sparse real general\n", ErrUnsupported, 1, "format"},
		{"pattern field", "%%MatrixMarket matrix coordinate pattern general\n", ErrUnsupported, 1, "pattern"},
		{"complex field", "%%MatrixMarket matrix coordinate complex general\n", ErrUnsupported, 1, "complex"},
		{"symmetric", "%%MatrixMarket matrix coordinate real symmetric\n", ErrUnsupported, 1, "symmetric"},
		{"skew-symmetric", "%%MatrixMarket matrix coordinate real skew-symmetric\n", ErrUnsupported, 1, "skew-symmetric"},
		{"hermitian", "%%MatrixMarket matrix coordinate real hermitian\n", ErrUnsupported, 1, "hermitian"},
		{"no size line", coo + "% only a comment\n", ErrSize, 3, "before the size line"},
		{"size two numbers", coo + "3 3\n", ErrSize, 2, "want 3 numbers"},
		{"size four numbers", coo + "3 3 1 1\n", ErrSize, 2, "want 3 numbers"},
		{"size negative", coo + "% c\n-3 3 1\n", ErrSize, 3, "non-negative"},
		{"size not integer", coo + "3 3.0 1\n", ErrSize, 2, "non-negative"},
		{"size huge", coo + "99999999999 3 1\n", ErrSize, 2, "larger than 2147483647"},
		{"array size three numbers", arr + "2 2 4\n", ErrSize, 2, "want 2 numbers"},
		{"entry two fields", coo + "2 2 1\n1 1\n", ErrEntry, 3, "row col value"},
		{"entry four fields", coo + "2 2 1\n1 1 1 1\n", ErrEntry, 3, "row col value"},
		{"entry bad row", coo + "2 2 1\nx 1 1\n", ErrEntry, 3, "row index"},
		{"entry bad col", coo + "2 2 1\n1 1.5 1\n", ErrEntry, 3, "column index"},
		{"entry bad value", coo + "2 2 1\n1 1 abc\n", ErrEntry, 3, "not a number"},
		{"entry NaN", coo + "2 2 1\n1 1 NaN\n", ErrEntry, 3, "NaN"},
		{"entry overflow", coo + "2 2 1\n1 1 1e999\n", ErrEntry, 3, "range"},
		{"integer field real value", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", ErrEntry, 3, "not an integer"},
		// Integers float64 cannot hold are refused, never rounded (issue
		// 56, item 2: 2^53+1 was read as 2^53, 2^63-1 as 2^63).
		{"integer 2^53+1", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 9007199254740993\n", ErrEntry, 3, "integer 9007199254740993 is not exactly representable in float64 (the nearest is 9007199254740992"},
		{"integer 2^63-1", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 -9223372036854775807\n", ErrEntry, 3, "not exactly representable in float64"},
		{"integer 10^20+1", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 100000000000000000001\n", ErrEntry, 3, "not exactly representable"},
		{"integer token in a real file", coo + "2 2 1\n1 1 +9007199254740993\n", ErrEntry, 3, "not exactly representable in float64"},
		{"row zero", coo + "2 2 1\n0 1 1\n", ErrRange, 3, "row 0 not in 1..2"},
		{"row too big", coo + "2 3 1\n3 1 1\n", ErrRange, 3, "row 3 not in 1..2"},
		{"col too big", coo + "2 3 2\n1 1 1\n\n1 4 1\n", ErrRange, 5, "column 4 not in 1..3"},
		{"fewer entries", coo + "2 2 3\n1 1 1\n2 2 1\n", ErrCount, 5, "2 of the 3 entries declared on line 2"},
		{"more entries", coo + "2 2 1\n1 1 1\n% c\n2 2 1\n", ErrCount, 5, "more entries than the 1 declared on line 2"},
		{"duplicate (dense)", coo + "2 2 3\n1 2 1\n% c\n2 1 5\n1 2 7\n", ErrDuplicate, 6, "in.mtx:6: duplicate entry (1, 2), first at line 3"},
		{"duplicate (sparse)", coo + "100000 100000 3\n5 7 1\n99999 1 2\n5 7 1\n", ErrDuplicate, 5, "in.mtx:5: duplicate entry (5, 7), first at line 3"},
		{"array fewer", arr + "2 2\n1\n2\n3\n", ErrCount, 6, "3 of the 4"},
		{"array more", arr + "1 1\n1\n2\n", ErrCount, 4, "more entries"},
		{"array two per line", arr + "2 1\n1 2\n", ErrEntry, 3, "one value per line"},
		{"line too long", coo + "1 1 1\n1 1 " + strings.Repeat("1", MaxLineBytes) + "\n", ErrEntry, 3, "longer than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "in.mtx")
			if err == nil {
				t.Fatal("no error")
			}
			var me *Error
			if !errors.As(err, &me) {
				t.Fatalf("%v is not an *Error", err)
			}
			if me.File != "in.mtx" || me.Line != tc.line {
				t.Errorf("at %s:%d, want in.mtx:%d (%v)", me.File, me.Line, tc.line, err)
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("%v does not wrap %v", err, tc.sentinel)
			}
			if !strings.Contains(err.Error(), tc.contains) || !strings.HasPrefix(err.Error(), "in.mtx:") {
				t.Errorf("%q lacks %q", err.Error(), tc.contains)
			}
		})
	}
}

// TestExactIntegers: the integers float64 (float32) holds are read as
// they are, whatever their size; a real written with a point or an
// exponent is rounded as reals are.
func TestExactIntegers(t *testing.T) {
	for _, c := range []struct {
		field, text string
		bits        int
		want        float64
	}{
		{"integer", "9007199254740992", 64, 1 << 53},
		{"integer", "-9007199254740992", 64, -(1 << 53)},
		{"integer", "18446744073709551616", 64, 1 << 64}, // was "not an integer"
		{"integer", "0000000000000000000012", 64, 12},
		{"real", "9007199254740993.0", 64, 1 << 53},
		{"real", "9.007199254740993e15", 64, 1 << 53},
		{"integer", "16777216", 32, 1 << 24},
		{"real", "16777217.5", 32, 1<<24 + 2},
	} {
		s, err := NewScanner(strings.NewReader("%%MatrixMarket matrix coordinate "+c.field+" general\n1 1 1\n1 1 "+c.text+"\n"), "f.mtx")
		if err != nil {
			t.Fatal(err)
		}
		s.SetBitSize(c.bits)
		if e, err := s.Next(); err != nil || e.V != c.want {
			t.Errorf("%s %s in float%d: %v, %v; want %v", c.field, c.text, c.bits, e.V, err, c.want)
		}
	}
	s, _ := NewScanner(strings.NewReader("%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 16777217\n"), "f.mtx")
	s.SetBitSize(32)
	if _, err := s.Next(); err == nil || !strings.Contains(err.Error(), "f.mtx:3: malformed entry: integer 16777217 is not exactly representable in float32 (the nearest is 16777216; integers beyond ±2^24") {
		t.Errorf("2^24+1 in float32: %v", err)
	}
}

func TestScannerBitSize32(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 0.1\n1 2 1e39\n"
	s, err := NewScanner(strings.NewReader(in), "f.mtx")
	if err != nil {
		t.Fatal(err)
	}
	s.SetBitSize(32)
	e, err := s.Next()
	if err != nil || e.V != float64(float32(0.1)) {
		t.Fatalf("got %v, %v; want float32(0.1)", e.V, err)
	}
	if _, err := s.Next(); err == nil || !strings.Contains(err.Error(), "f.mtx:4") || !strings.Contains(err.Error(), "float32") {
		t.Fatalf("got %v, want an out-of-range error at line 4", err)
	}
	if err := s.Errorf("custom %d", 7); err.Error() != "f.mtx:4: custom 7" {
		t.Fatalf("Errorf gave %q", err)
	}
}

func TestWriteRoundTrip(t *testing.T) {
	entries := []Entry{{0, 0, 0.1}, {2, 1, -1e-300}, {1, 3, math.MaxFloat64}, {2, 3, math.Inf(-1)}, {0, 2, 5}}
	var buf bytes.Buffer
	if err := Write(&buf, 3, 4, entries, "written by a test", "two\nlines"); err != nil {
		t.Fatal(err)
	}
	want := "%%MatrixMarket matrix coordinate real general\n% written by a test\n% two\n% lines\n3 4 5\n"
	if !strings.HasPrefix(buf.String(), want) {
		t.Fatalf("file starts %q", buf.String())
	}
	m, err := Read(&buf, "rt.mtx")
	if err != nil {
		t.Fatal(err)
	}
	if m.Rows != 3 || m.Cols != 4 || !reflect.DeepEqual(m.Entries, entries) {
		t.Fatalf("round trip gave %+v", m)
	}
}

func TestWrite32(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, 1, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write32(0, 0, 0.1); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(buf.String(), "\n1 1 0.1\n") {
		t.Fatalf("got %q", buf.String())
	}
}

func TestWriterErrors(t *testing.T) {
	tests := []struct {
		name  string
		write func(w *Writer) error
		want  string
	}{
		{"out of range", func(w *Writer) error { return w.Write(2, 0, 1) }, "outside"},
		{"negative", func(w *Writer) error { return w.Write(0, -1, 1) }, "outside"},
		{"NaN", func(w *Writer) error { return w.Write(0, 0, math.NaN()) }, "NaN"},
		{"too many", func(w *Writer) error {
			w.Write(0, 0, 1)
			return w.Write(1, 1, 1)
		}, "more than"},
		{"too few", func(w *Writer) error { return w.Close() }, "0 entries written, 1 declared"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, err := NewWriter(io.Discard, 2, 2, 1)
			if err != nil {
				t.Fatal(err)
			}
			err = tc.write(w)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if err2 := w.Close(); err2 == nil {
				t.Fatal("Close after an error succeeded")
			}
		})
	}
	if _, err := NewWriter(io.Discard, -1, 2, 0); err == nil {
		t.Fatal("negative size accepted")
	}
}

// FuzzRead: no input makes Read panic; what it accepts is consistent with
// its header and survives a write/read round trip.
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.5\n3 1 -2\n",
		"%%MatrixMarket matrix coordinate integer general\n2 2 1\n% c\n\n2 2 7\n",
		"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
		"%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 1\n",
		"%%MatrixMarket matrix array real general\n99999 99999\n1\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 99999999\n1 1 inf\n",
		"%%MatrixMarket matrix coordinate real general\n2 2 3\n1 2 1\n2 1 1\n1 2 1\n",
		"%%MatrixMarket matrix coordinate integer general\n99999 99999 2\n7 7 1\n7 7 2\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), "fuzz.mtx")
		if err != nil {
			var me *Error
			if !errors.As(err, &me) || me.File != "fuzz.mtx" || me.Line < 1 {
				t.Fatalf("error %v does not name the file and a line", err)
			}
			return
		}
		if m.Format == FormatArray {
			if len(m.Data) != m.Rows*m.Cols || m.NNZ != len(m.Data) {
				t.Fatalf("array %d x %d holds %d values", m.Rows, m.Cols, len(m.Data))
			}
			return
		}
		if len(m.Entries) != m.NNZ {
			t.Fatalf("%d entries, %d declared", len(m.Entries), m.NNZ)
		}
		cells := map[[2]int]bool{}
		for _, e := range m.Entries {
			if cells[[2]int{e.I, e.J}] {
				t.Fatalf("cell (%d, %d) accepted twice", e.I+1, e.J+1)
			}
			cells[[2]int{e.I, e.J}] = true
			if e.I < 0 || e.I >= m.Rows || e.J < 0 || e.J >= m.Cols || math.IsNaN(e.V) {
				t.Fatalf("bad entry %+v in %d x %d", e, m.Rows, m.Cols)
			}
		}
		var buf bytes.Buffer
		if err := Write(&buf, m.Rows, m.Cols, m.Entries); err != nil {
			t.Fatal(err)
		}
		m2, err := Read(&buf, "again.mtx")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(m.Entries, m2.Entries) {
			t.Fatalf("round trip changed the entries")
		}
	})
}

func TestDiagonal(t *testing.T) {
	m, err := Read(strings.NewReader("%%MatrixMarket matrix coordinate real general\n3 4 3\n1 1 5\n3 3 -2\n2 1 7\n"), "d.mtx")
	if err != nil {
		t.Fatal(err)
	}
	got := m.Diagonal(-1)
	if len(got) != 3 || got[0] != 5 || got[1] != -1 || got[2] != -2 {
		t.Errorf("Diagonal = %v, want [5 -1 -2]", got)
	}
}
