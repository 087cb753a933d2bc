package apspgraph

import (
	"context"
	"fmt"
	"io"
	"iter"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/mtx"
)

// The PCG stream selectors (the second PCG seed word) of the three draws.
const (
	StreamShape     uint64 = 0x61707370 // "apsp"
	StreamPotential uint64 = 0x706f74   // "pot"
	StreamWeights   uint64 = 0x77676874 // "wght"
)

// MaxN is the largest order Generate accepts: the arc set is a bitmap of
// n(n-1) bits (512 MiB at MaxN), and `solve apsp` holds n² float64 values.
const MaxN = 1 << 16

// MaxWeight bounds |Min| and |Max|: a path of fewer than MaxN arcs then
// weighs less than 2^47 in magnitude, an integer exact in float64 (the
// solver's type), and every draw's range fits in a uint64.
const MaxWeight = 1 << 31

// CycleLen is the length of the planted negative cycle (fewer on a graph of
// fewer vertices).
const CycleLen = 3

// Options are a graph's parameters. Their names match the flags of
// `semibench gen apsp`.
type Options struct {
	N             int   // vertices, 1..MaxN (2..MaxN with NegativeCycle)
	Arcs          int64 // arcs, 0..N(N-1) (at least the cycle's with NegativeCycle)
	Min, Max      int64 // the weights' range, within ±MaxWeight
	NegativeCycle bool  // plant a negative cycle; without it there is none
	Seed          uint64
}

// OptionError is an option out of range; Option is the option's flag name
// ("n", "arcs", "min", "max", "negative-cycle", "density").
type OptionError struct {
	Option, Msg string
}

func (e *OptionError) Error() string { return e.Option + ": " + e.Msg }

func optErr(option, format string, a ...any) error {
	return &OptionError{Option: option, Msg: fmt.Sprintf(format, a...)}
}

// MaxArcs returns n(n-1), the number of ordered pairs of distinct vertices
// (0 for n < 1).
func MaxArcs(n int) int64 {
	if n < 1 {
		return 0
	}
	return int64(n) * int64(n-1)
}

// ArcsForDensity returns round(density · n(n-1)), the arc count of a graph
// of that density; density must be in [0, 1] and n in 1..MaxN.
func ArcsForDensity(n int, density float64) (int64, error) {
	if n < 1 || n > MaxN {
		return 0, optErr("n", "must be in 1..%d, got %d", MaxN, n)
	}
	if !(density >= 0 && density <= 1) {
		return 0, optErr("density", "must be in [0, 1], got %g", density)
	}
	return int64(math.Round(density * float64(MaxArcs(n)))), nil
}

// Check validates the options before any work; the error is an
// *OptionError naming the option at fault.
func (o Options) Check() error {
	if o.N < 1 || o.N > MaxN {
		return optErr("n", "must be in 1..%d, got %d", MaxN, o.N)
	}
	if o.Arcs < 0 || o.Arcs > MaxArcs(o.N) {
		return optErr("arcs", "must be in 0..%d (n(n-1) with n = %d), got %d", MaxArcs(o.N), o.N, o.Arcs)
	}
	if o.Min < -MaxWeight || o.Min > MaxWeight {
		return optErr("min", "must be in -%d..%d, got %d", int64(MaxWeight), int64(MaxWeight), o.Min)
	}
	if o.Max < -MaxWeight || o.Max > MaxWeight {
		return optErr("max", "must be in -%d..%d, got %d", int64(MaxWeight), int64(MaxWeight), o.Max)
	}
	if o.Min > o.Max {
		return optErr("min", "%d is above --max %d", o.Min, o.Max)
	}
	if !o.NegativeCycle {
		if o.Max < 0 {
			return optErr("max", "must be at least 0 without --negative-cycle (with every arc negative every cycle is), got %d", o.Max)
		}
		return nil
	}
	if o.N < 2 {
		return optErr("negative-cycle", "needs --n of at least 2, got %d", o.N)
	}
	if o.Min > -1 {
		return optErr("negative-cycle", "needs a negative --min, got %d", o.Min)
	}
	if k := int64(min(CycleLen, o.N)); o.Arcs < k {
		return optErr("negative-cycle", "needs at least %d arcs (the cycle's), got %d", k, o.Arcs)
	}
	return nil
}

// Bytes returns the memory Generate needs for a graph of order n: the arc
// bitmap and the potentials.
func Bytes(n int) uint64 {
	return uint64(MaxArcs(n)+63)/64*8 + uint64(n)*8
}

// Arc is one arc From -> To (0-based) of weight Weight, the matrix entry
// a[From][To].
type Arc struct {
	From, To int
	Weight   int64
}

// Graph is a generated graph; Arcs enumerates it.
type Graph struct {
	opt    Options
	set    []uint64 // bit t: the pair of index t is an arc
	pot    []int64
	cycle  []int   // the planted cycle's vertices in order, nil without
	cycleW []int64 // cycleW[i]: weight of cycle[i] -> cycle[i+1 mod k]
}

// Generate draws the graph of the options (see the package documentation
// for the model and the exact draw order).
func Generate(o Options) (*Graph, error) {
	return GenerateContext(context.Background(), o)
}

// ctxEvery is how many draws GenerateContext makes between looks at its
// context.
const ctxEvery = 1 << 20

// GenerateContext is Generate, stopping with ctx's error (wrapped) within
// a million draws once ctx is done.
func GenerateContext(ctx context.Context, o Options) (*Graph, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	n := o.N
	total := MaxArcs(n)
	g := &Graph{opt: o, set: make([]uint64, (total+63)/64), pot: make([]int64, n)}
	src := rand.NewPCG(o.Seed, StreamShape)
	var cycleIdx []int64
	if o.NegativeCycle {
		k := min(CycleLen, n)
		for len(g.cycle) < k {
			v := int(dag.Uintn(src, uint64(n)))
			dup := false
			for _, u := range g.cycle {
				dup = dup || u == v
			}
			if !dup {
				g.cycle = append(g.cycle, v)
			}
		}
		hi := min(o.Max, -1)
		for range k {
			g.cycleW = append(g.cycleW, o.Min+int64(dag.Uintn(src, uint64(hi-o.Min+1))))
		}
		for i, v := range g.cycle {
			t := index(n, v, g.cycle[(i+1)%k])
			cycleIdx = append(cycleIdx, t)
			g.set[t/64] |= 1 << (t % 64)
		}
	}
	in := int64(len(cycleIdx))
	if 2*o.Arcs <= total {
		for draws := 0; in < o.Arcs; draws++ {
			if draws%ctxEvery == 0 && ctx.Err() != nil {
				return nil, fmt.Errorf("apspgraph: %w", ctx.Err())
			}
			t := int64(dag.Uintn(src, uint64(total)))
			if g.set[t/64]&(1<<(t%64)) == 0 {
				g.set[t/64] |= 1 << (t % 64)
				in++
			}
		}
	} else {
		for i := range g.set {
			g.set[i] = math.MaxUint64
		}
		if r := total % 64; r != 0 {
			g.set[len(g.set)-1] = 1<<r - 1
		}
		in = total
		for draws := 0; in > o.Arcs; draws++ {
			if draws%ctxEvery == 0 && ctx.Err() != nil {
				return nil, fmt.Errorf("apspgraph: %w", ctx.Err())
			}
			t := int64(dag.Uintn(src, uint64(total)))
			if g.set[t/64]&(1<<(t%64)) == 0 || contains(cycleIdx, t) {
				continue
			}
			g.set[t/64] &^= 1 << (t % 64)
			in--
		}
	}
	if p := g.potentialBound(); p > 0 {
		psrc := rand.NewPCG(o.Seed, StreamPotential)
		for v := range g.pot {
			g.pot[v] = int64(dag.Uintn(psrc, uint64(p+1)))
		}
	}
	return g, nil
}

// potentialBound is P of the package documentation.
func (g *Graph) potentialBound() int64 {
	if g.opt.Min >= 0 || g.opt.Max < 0 {
		return 0
	}
	return min(-g.opt.Min, g.opt.Max)
}

func contains(s []int64, t int64) bool {
	for _, u := range s {
		if u == t {
			return true
		}
	}
	return false
}

// index is the row-major index of the pair i -> j (i != j) among the n(n-1)
// ordered pairs.
func index(n, i, j int) int64 {
	t := int64(i)*int64(n-1) + int64(j)
	if j > i {
		t--
	}
	return t
}

// N returns the number of vertices.
func (g *Graph) N() int { return g.opt.N }

// NumArcs returns the number of arcs.
func (g *Graph) NumArcs() int64 { return g.opt.Arcs }

// Cycle returns the planted negative cycle's vertices in order (0-based;
// the last one's arc goes back to the first) and its weight; nil and 0
// without one.
func (g *Graph) Cycle() ([]int, int64) {
	var w int64
	for _, x := range g.cycleW {
		w += x
	}
	return append([]int(nil), g.cycle...), w
}

// Potential returns p(v) of the package documentation (0 when no potential
// is drawn).
func (g *Graph) Potential(v int) int64 { return g.pot[v] }

// Arcs enumerates the arcs in row-major order (by From, then To), drawing
// their weights; every enumeration yields the same arcs and weights.
func (g *Graph) Arcs() iter.Seq[Arc] {
	return func(yield func(Arc) bool) {
		n, o := g.opt.N, g.opt
		wsrc := rand.NewPCG(o.Seed, StreamWeights)
		for wi, word := range g.set {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &= word - 1
				t := int64(wi)*64 + int64(b)
				i := int(t / int64(n-1))
				j := int(t % int64(n-1))
				if j >= i {
					j++
				}
				a := Arc{From: i, To: j}
				if c := g.cycleArc(i, j); c >= 0 {
					a.Weight = g.cycleW[c]
				} else {
					lo := o.Min
					if o.Max >= 0 {
						lo = max(o.Min, g.pot[i]-g.pot[j])
					}
					a.Weight = lo + int64(dag.Uintn(wsrc, uint64(o.Max-lo+1)))
				}
				if !yield(a) {
					return
				}
			}
		}
	}
}

// cycleArc returns c when i -> j is the cycle's arc from cycle[c], else -1.
func (g *Graph) cycleArc(i, j int) int {
	for c, v := range g.cycle {
		if v == i && g.cycle[(c+1)%len(g.cycle)] == j {
			return c
		}
	}
	return -1
}

// WriteMatrixMarket writes the graph as a coordinate Matrix Market file,
// the input of `semibench solve apsp`: a line "i j w" (1-based) is the arc
// i -> j of weight w. The comment lines describe the options (and the
// planted cycle), so the same options give the same bytes.
func (g *Graph) WriteMatrixMarket(w io.Writer) error {
	o := g.opt
	comments := []string{
		fmt.Sprintf("semibench gen apsp: n=%d arcs=%d min=%d max=%d seed=%d negative-cycle=%t", o.N, o.Arcs, o.Min, o.Max, o.Seed, o.NegativeCycle),
		"a line \"i j w\" is a_ij = w, the arc i -> j (Rote's convention); absent entries are +inf in min-plus",
	}
	if cyc, cw := g.Cycle(); cyc != nil {
		s := ""
		for _, v := range append(cyc, cyc[0]) {
			if s != "" {
				s += " -> "
			}
			s += fmt.Sprint(v + 1)
		}
		comments = append(comments, fmt.Sprintf("planted negative cycle %s of weight %d", s, cw))
	} else {
		comments = append(comments, "no negative cycle: w(i,j) = c(i,j) + p(i) - p(j) with c >= 0 for a potential p")
	}
	mw, err := mtx.NewWriter(w, o.N, o.N, int(o.Arcs), comments...)
	if err != nil {
		return err
	}
	for a := range g.Arcs() {
		if err := mw.Write(a.From, a.To, float64(a.Weight)); err != nil {
			return err
		}
	}
	return mw.Close()
}
