package cuda

import (
	"fmt"
	"strings"
	"testing"
)

func TestFits(t *testing.T) {
	p := Plan{What: "cuda/paper n=4000", Buffers: []Buffer{{"W", 64_000_000}, {"val", 16_000_000}, {"idx", 16_000_000}}}
	if p.Total() != 96_000_000 {
		t.Fatalf("Total = %d", p.Total())
	}
	if err := Fits(p, 96_000_000+Reserve, nil); err != nil {
		t.Errorf("exact fit refused: %v", err)
	}
	err := Fits(p, 90_000_000, nil)
	if err == nil {
		t.Fatal("a plan larger than free memory must be refused")
	}
	for _, want := range []string{"cuda/paper n=4000", "needs 96000000 bytes", "90000000 bytes", "free"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Buffers already held and large enough need no new memory.
	held := map[string]uint64{"W": 64_000_000, "val": 16_000_000, "idx": 16_000_000}
	if err := Fits(p, Reserve, held); err != nil {
		t.Errorf("reused buffers refused: %v", err)
	}
	// Every buffer held and large enough: nothing is allocated, so nothing
	// need be free (Device.Check then asks the driver nothing).
	if err := Fits(p, 0, held); err != nil {
		t.Errorf("a plan wholly held refused with no free memory: %v", err)
	}
	if !AllHeld(p, held) || AllHeld(p, map[string]uint64{"W": 64_000_000, "val": 16_000_000}) ||
		AllHeld(p, map[string]uint64{"W": 64_000_000, "val": 16_000_000, "idx": 15_999_999}) {
		t.Error("AllHeld: want true only when every buffer is held at its size or more")
	}
	if AllHeld(Plan{Buffers: []Buffer{{"flag", 0}}}, nil) {
		t.Error("AllHeld: a buffer of no bytes that is not held counted as held")
	}
	// A held buffer that is too small is freed first: its bytes count as free.
	held = map[string]uint64{"W": 32_000_000}
	if err := Fits(p, 96_000_000+Reserve-32_000_000, held); err != nil {
		t.Errorf("freed buffer not counted: %v", err)
	}
	if err := Fits(p, 96_000_000+Reserve-32_000_001, held); err == nil {
		t.Error("one byte short must be refused")
	}
}

func TestFormatBytes(t *testing.T) {
	for b, want := range map[uint64]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 64 << 20: "64.0 MiB", 3 << 30: "3.0 GiB"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestSplitColumns(t *testing.T) {
	work := func(n int, r Range) float64 {
		var w float64
		for j := r.Lo; j < r.Hi; j++ {
			w += float64(n-j) * float64(n-j)
		}
		return w
	}
	for _, c := range []struct{ n, parts, align int }{
		{4096, 1, 64}, {4096, 2, 64}, {4096, 3, 64}, {4096, 4, 64}, {4000, 8, 64}, {16000, 4, 64}, {1000, 3, 1},
	} {
		rs, err := SplitColumns(c.n, c.parts, c.align)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) != c.parts || rs[0].Lo != 0 || rs[len(rs)-1].Hi != c.n {
			t.Fatalf("%+v: ranges %v do not cover [0, n)", c, rs)
		}
		total := work(c.n, Range{0, c.n})
		for i, r := range rs {
			if r.Len() <= 0 {
				t.Errorf("%+v: empty range %d: %v", c, i, rs)
			}
			if i > 0 && r.Lo != rs[i-1].Hi {
				t.Errorf("%+v: ranges not contiguous: %v", c, rs)
			}
			if r.Hi != c.n && r.Hi%c.align != 0 {
				t.Errorf("%+v: boundary %d not aligned", c, r.Hi)
			}
			// Balanced within one alignment step of the ideal share.
			share := work(c.n, r) / total
			slack := 3 * float64(c.align) * float64(c.n) * float64(c.n) / total
			if d := share - 1/float64(c.parts); d > slack || d < -slack {
				t.Errorf("%+v: range %d %v has %.3f of the work, want %.3f", c, i, r, share, 1/float64(c.parts))
			}
		}
		if c.parts > 1 && rs[0].Len() >= rs[len(rs)-1].Len() {
			t.Errorf("%+v: the first (heaviest) columns should get the narrowest range: %v", c, rs)
		}
	}
	// Too few columns: trailing parts are empty, never negative.
	rs, err := SplitColumns(100, 4, 64)
	if err != nil {
		t.Fatal(err)
	}
	if rs[0] != (Range{0, 64}) || rs[1] != (Range{64, 100}) || rs[2].Len() != 0 || rs[3].Len() != 0 {
		t.Errorf("small split: %v", rs)
	}
	for _, bad := range [][3]int{{10, 0, 1}, {10, 1, 0}, {-1, 1, 1}} {
		if _, err := SplitColumns(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("SplitColumns%v must fail", bad)
		}
	}
}

// TestSplitEven: the ranges cover [0, n) exactly once, in order, each
// non-empty with aligned boundaries, their widths within align of each
// other; more parts than align-wide chunks are refused.
func TestSplitEven(t *testing.T) {
	for _, align := range []int{1, 8, 64} {
		for _, n := range []int{1, 7, 8, 9, 63, 64, 65, 100, 1000, 131562, 327006} {
			chunks := (n + align - 1) / align
			for _, parts := range []int{1, 2, 3, 4, 7, 8, 16} {
				rs, err := SplitEven(n, parts, align)
				if parts > chunks {
					if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d parts", chunks)) {
						t.Errorf("SplitEven(%d, %d, %d): %v, want a refusal naming at most %d parts", n, parts, align, err, chunks)
					}
					continue
				}
				if err != nil {
					t.Fatalf("SplitEven(%d, %d, %d): %v", n, parts, align, err)
				}
				if len(rs) != parts {
					t.Fatalf("SplitEven(%d, %d, %d): %d ranges", n, parts, align, len(rs))
				}
				covered := make([]int, n)
				lo, wmin, wmax := 0, n, 0
				for _, r := range rs {
					if r.Lo != lo || r.Len() <= 0 {
						t.Fatalf("SplitEven(%d, %d, %d) = %v: range %v not contiguous and non-empty", n, parts, align, rs, r)
					}
					if r.Lo%align != 0 || (r.Hi != n && r.Hi%align != 0) {
						t.Errorf("SplitEven(%d, %d, %d) = %v: boundary of %v not a multiple of %d", n, parts, align, rs, r, align)
					}
					for j := r.Lo; j < r.Hi; j++ {
						covered[j]++
					}
					lo = r.Hi
					if r.Hi != n || n%align == 0 {
						wmin, wmax = min(wmin, r.Len()), max(wmax, r.Len())
					}
				}
				for j, c := range covered {
					if c != 1 {
						t.Fatalf("SplitEven(%d, %d, %d): column %d covered %d times", n, parts, align, j, c)
					}
				}
				if wmax-wmin > align {
					t.Errorf("SplitEven(%d, %d, %d) = %v: widths from %d to %d, more than %d apart", n, parts, align, rs, wmin, wmax, align)
				}
			}
		}
	}
	for _, bad := range [][3]int{{10, 0, 1}, {10, 1, 0}, {0, 1, 1}} {
		if _, err := SplitEven(bad[0], bad[1], bad[2]); err == nil {
			t.Errorf("SplitEven%v must fail", bad)
		}
	}
}
