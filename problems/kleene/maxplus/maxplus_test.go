package maxplus

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/semibench/semibench/internal/digest"
	"github.com/semibench/semibench/mtx"
)

func TestNewIdentityAtSetArcs(t *testing.T) {
	m := New(3)
	for _, v := range m.Val {
		if v != Epsilon {
			t.Fatalf("New has %v, want ε", v)
		}
	}
	if m.Arcs() != 0 {
		t.Fatalf("Arcs of ε = %d", m.Arcs())
	}
	e := Identity(3)
	if e.At(1, 1) != 0 || e.At(0, 1) != Epsilon || e.Arcs() != 0 {
		t.Fatalf("Identity wrong: %v", e.Val)
	}
	m.Set(2, 0, 1.5) // arc 1 -> 3
	m.Set(1, 1, 4)   // self-loop: not an arc
	if m.At(2, 0) != 1.5 || m.Val[2*3+0] != 1.5 || m.Arcs() != 1 {
		t.Fatalf("Set/At/Arcs: %v, arcs %d", m.Val, m.Arcs())
	}
	c := m.Clone()
	c.Set(0, 0, 9)
	if m.At(0, 0) != Epsilon {
		t.Fatal("Clone shares storage")
	}
	if Bytes(1000) != 4_000_000 || Bytes(0) != 0 || Bytes(-1) != 0 {
		t.Fatal("Bytes")
	}
	if Epsilon != -math.MaxFloat32 || float32(Epsilon) != -math.MaxFloat32 {
		t.Fatal("Epsilon is not -FLT_MAX")
	}
}

func TestHash(t *testing.T) {
	// The digest of the 8 bytes 00 00 80 3f 00 00 00 c0 (1.0f, -2.0f
	// little-endian).
	m := &Matrix{N: 1, Val: []float32{1, -2}}
	want := digest.Sum([]byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0})
	if got := m.Hash(); got != want {
		t.Fatalf("hash %q, want %q", got, want)
	}
	big := New(100)
	h1 := big.Hash()
	big.Set(99, 99, 0)
	if big.Hash() == h1 {
		t.Fatal("hash ignores the last entry")
	}
	var z, nz Matrix
	z.Val, nz.Val = []float32{0}, []float32{float32(math.Copysign(0, -1))}
	if z.Hash() == nz.Hash() {
		t.Fatal("hash ignores the sign of zero")
	}
}

func TestMatrixMarketRoundTrip(t *testing.T) {
	m := New(4)
	m.Set(1, 0, 0.1)
	m.Set(3, 0, -1e-30)
	m.Set(0, 0, 0)
	m.Set(2, 3, math.MaxFloat32)
	m.Set(3, 2, -math.MaxFloat32/2)
	m.Set(2, 1, 1.0000001)
	var buf bytes.Buffer
	if err := WriteMatrixMarket(&buf, m); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	body := lines[len(lines)-7:]
	want := []string{"4 4 6", "1 1 0", "2 1 0.1", "3 2 1.0000001", "3 4 3.4028235e+38", "4 1 -1e-30", "4 3 -1.7014117e+38"}
	if strings.Join(body, "|") != strings.Join(want, "|") {
		t.Fatalf("file body\n%s\nwant\n%s", strings.Join(body, "\n"), strings.Join(want, "\n"))
	}
	back, err := ReadMatrixMarketLimit(&buf, "rt.mtx", 0)
	if err != nil {
		t.Fatal(err)
	}
	if back.Hash() != m.Hash() {
		t.Fatalf("round trip changed the matrix:\n%v\n%v", back.Val, m.Val)
	}
}

func TestReadMatrixMarketSemantics(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate real general\n3 3 3\n2 1 2.5\n3 2 -inf\n1 3 -3.4028235e+38\n"
	m, err := ReadMatrixMarketLimit(strings.NewReader(in), "s.mtx", 0)
	if err != nil {
		t.Fatal(err)
	}
	if m.At(1, 0) != 2.5 {
		t.Errorf("got %v, want 2.5", m.At(1, 0))
	}
	dup := "%%MatrixMarket matrix coordinate real general\n3 3 3\n2 1 1.5\n2 1 2.5\n1 1 0\n"
	if _, err := ReadMatrixMarketLimit(strings.NewReader(dup), "d.mtx", 0); !errors.Is(err, mtx.ErrDuplicate) ||
		!strings.Contains(err.Error(), "d.mtx:4: duplicate entry (2, 1), first at line 3") {
		t.Errorf("a cell listed twice: error %v", err)
	}
	if m.At(2, 1) != Epsilon || m.At(0, 2) != Epsilon || m.Arcs() != 1 {
		t.Errorf("-inf and -FLT_MAX must read as ε: %v", m.Val)
	}
	arr := "%%MatrixMarket matrix array integer general\n2 2\n0\n5\n-7\n0\n"
	a, err := ReadMatrixMarketLimit(strings.NewReader(arr), "a.mtx", 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.At(1, 0) != 5 || a.At(0, 1) != -7 || a.At(0, 0) != 0 {
		t.Errorf("array: %v", a.Val)
	}
}

func TestReadMatrixMarketErrors(t *testing.T) {
	const coo = "%%MatrixMarket matrix coordinate real general\n"
	tests := []struct {
		name, in string
		limit    uint64
		want     string
	}{
		{"not square", coo + "2 3 0\n", 0, "e.mtx:2: matrix is 2 x 3"},
		{"too big", coo + "1000 1000 0\n", 7_999_999, "e.mtx:2: n=1000: the dense matrix and its closure need 7.6 MiB"},
		{"beyond any machine", coo + "2000000000 2000000000 0\n", 0, "beyond any machine"},
		{"plus inf", coo + "2 2 1\n1 2 +Inf\n", 0, "e.mtx:3: entry (1, 2) is +Inf"},
		{"float32 overflow", coo + "2 2 1\n1 2 1e39\n", 0, "e.mtx:3:"},
		{"inexact integer", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 16777217\n", 0, "e.mtx:3:"},
		{"mtx error passes through", coo + "2 2 1\n3 1 1\n", 0, "e.mtx:3: index out of range"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadMatrixMarketLimit(strings.NewReader(tc.in), "e.mtx", tc.limit)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			var me *mtx.Error
			if !errors.As(err, &me) {
				t.Fatalf("%v is not an *mtx.Error", err)
			}
		})
	}
	if m, err := ReadMatrixMarketLimit(strings.NewReader(coo+"1000 1000 0\n"), "ok.mtx", 8_000_000); err != nil || m.N != 1000 {
		t.Fatalf("a size that fits was refused: %v", err)
	}
}

func TestWriteMatrixMarketRefusesOverflow(t *testing.T) {
	for _, v := range []float32{float32(math.Inf(1)), float32(math.NaN())} {
		m := New(2)
		m.Set(0, 1, v)
		if err := WriteMatrixMarket(&bytes.Buffer{}, m); err == nil || !strings.Contains(err.Error(), "(1, 2)") {
			t.Fatalf("%v: got %v", v, err)
		}
	}
	m := New(2)
	m.Set(0, 1, float32(math.Inf(-1)))
	var buf bytes.Buffer
	if err := WriteMatrixMarket(&buf, m); err != nil || !strings.HasSuffix(buf.String(), "\n2 2 0\n") {
		t.Fatalf("-Inf must be left out: %q, %v", buf.String(), err)
	}
}

func TestAvailableMemory(t *testing.T) {
	// On Linux the kernel reports it; elsewhere 0 means unknown.
	if a := AvailableMemory(); a != 0 && a < 1<<20 {
		t.Fatalf("implausible MemAvailable %d", a)
	}
}

func FuzzReadMatrixMarket(f *testing.F) {
	f.Add([]byte("%%MatrixMarket matrix coordinate real general\n3 3 2\n2 1 1.5\n3 2 -2\n"))
	f.Add([]byte("%%MatrixMarket matrix array real general\n2 2\n1\n-inf\n3\n4\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMatrixMarketLimit(bytes.NewReader(data), "fuzz.mtx", 1<<24)
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteMatrixMarket(&buf, m); err != nil {
			t.Fatal(err)
		}
		back, err := ReadMatrixMarketLimit(&buf, "back.mtx", 1<<24)
		if err != nil {
			t.Fatal(err)
		}
		if back.Hash() != m.Hash() {
			t.Fatal("round trip changed the matrix")
		}
	})
}
