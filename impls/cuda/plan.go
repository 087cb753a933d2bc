package cuda

import (
	"fmt"
	"strings"
)

// Reserve is the device memory left free beyond an instance's buffers, for
// the driver's own needs (kernel modules, launch state, the JIT).
const Reserve = 64 << 20

// Buffer is one named device allocation of a plan.
type Buffer struct {
	Name  string
	Bytes uint64
}

// Plan lists the device memory an instance needs.
type Plan struct {
	What    string // e.g. "cuda/fast n=4000"
	Buffers []Buffer
}

// Total returns the bytes of all buffers.
func (p Plan) Total() uint64 {
	var t uint64
	for _, b := range p.Buffers {
		t += b.Bytes
	}
	return t
}

// Fits checks a plan against the device's free memory. held gives the bytes
// of buffers of the same names that the device already holds and would
// reuse or free first. The instance fits when its new bytes plus Reserve do
// not exceed free; otherwise the error gives the bytes needed and free.
func Fits(p Plan, free uint64, held map[string]uint64) error {
	if AllHeld(p, held) {
		return nil // nothing to allocate
	}
	var need uint64
	for _, b := range p.Buffers {
		if h := held[b.Name]; h >= b.Bytes {
			continue
		} else {
			// A held buffer that is too small is freed before the new one is
			// allocated, so its bytes count as free.
			free += h
		}
		need += b.Bytes
	}
	if need+Reserve <= free {
		return nil
	}
	parts := make([]string, len(p.Buffers))
	for i, b := range p.Buffers {
		parts[i] = fmt.Sprintf("%s %s", b.Name, FormatBytes(b.Bytes))
	}
	return fmt.Errorf("%s does not fit in device memory: it needs %d bytes (%s: %s) plus %s reserved, and %d bytes (%s) are free",
		p.What, p.Total(), FormatBytes(p.Total()), strings.Join(parts, ", "), FormatBytes(Reserve), free, FormatBytes(free))
}

// AllHeld reports whether held (bytes by buffer name) has every buffer of
// p, each at least as large as p needs: then p allocates nothing.
func AllHeld(p Plan, held map[string]uint64) bool {
	for _, b := range p.Buffers {
		if held[b.Name] < max(b.Bytes, 1) {
			return false
		}
	}
	return true
}

// FormatBytes renders a byte count in binary units, e.g. "61.0 MiB".
func FormatBytes(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	div, exp := uint64(unit), 0
	for n := b / unit; n >= unit && exp < 4; n /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(b)/float64(div), "KMGTP"[exp])
}

// Range is a half-open range [Lo, Hi) of indices.
type Range struct{ Lo, Hi int }

// Len returns Hi - Lo.
func (r Range) Len() int { return r.Hi - r.Lo }

// SplitColumns splits the columns [0, n) of a lower-triangular closure
// (nodes in topological order) into parts contiguous ranges of nearly equal
// work, each boundary a multiple of align. Column j of X* costs about
// (n-j)^2 (the rows below j, each reached from the rows between), so the
// early columns get narrower ranges. When n is too small to give each part
// align columns, the trailing parts are empty. parts and align must be
// positive.
func SplitColumns(n, parts, align int) ([]Range, error) {
	if parts < 1 {
		return nil, fmt.Errorf("split into %d parts: need at least 1", parts)
	}
	if align < 1 {
		return nil, fmt.Errorf("split with alignment %d: need at least 1", align)
	}
	if n < 0 {
		return nil, fmt.Errorf("split %d columns: negative size", n)
	}
	// cum(c) = Σ_{j<c} (n-j)^2, in closed form via the sum of squares.
	sq := func(k float64) float64 { return k * (k + 1) * (2*k + 1) / 6 }
	cum := func(c int) float64 { return sq(float64(n)) - sq(float64(n-c)) }
	total := cum(n)
	out := make([]Range, parts)
	lo := 0
	for d := 0; d < parts; d++ {
		hi := n
		if d < parts-1 {
			target := total * float64(d+1) / float64(parts)
			// The smallest c with cum(c) >= target, by bisection.
			a, b := lo, n
			for a < b {
				m := (a + b) / 2
				if cum(m) >= target {
					b = m
				} else {
					a = m + 1
				}
			}
			hi = (a + align/2) / align * align
			if hi <= lo {
				hi = lo + align
			}
			if hi > n {
				hi = n
			}
		}
		out[d] = Range{lo, hi}
		lo = hi
	}
	return out, nil
}

// SplitEven splits the columns [0, n) into parts contiguous ranges of
// nearly equal width, for work that costs the same per column (the column
// slabs of a (min,+) power): every boundary is a multiple of align, and the
// widths differ by at most align (the last range takes the remainder below
// align). Every range is non-empty, so parts may not exceed the number of
// align-wide chunks, ⌈n/align⌉: such a split is refused, naming both.
func SplitEven(n, parts, align int) ([]Range, error) {
	if parts < 1 {
		return nil, fmt.Errorf("split into %d parts: need at least 1", parts)
	}
	if align < 1 {
		return nil, fmt.Errorf("split with alignment %d: need at least 1", align)
	}
	if n < 1 {
		return nil, fmt.Errorf("split %d columns: need at least 1", n)
	}
	chunks := (n + align - 1) / align
	if parts > chunks {
		return nil, fmt.Errorf("split %d columns into %d parts of at least %d columns: at most %d parts", n, parts, align, chunks)
	}
	out := make([]Range, parts)
	lo := 0
	for d := range parts {
		// Chunks [d·chunks/parts, (d+1)·chunks/parts): sizes differ by one.
		hi := min(n, (d+1)*chunks/parts*align)
		out[d] = Range{lo, hi}
		lo = hi
	}
	return out, nil
}
