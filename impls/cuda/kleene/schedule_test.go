package cudakleene

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
)

const eps = maxplus.Epsilon

// randomLower returns an n x n DAG in topological order (strictly lower
// triangular) with integer weights in [-8, 8] and arc density p.
func randomLower(n int, p float64, rng *rand.Rand) []float32 {
	x := make([]float32, n*n)
	for i := range x {
		x[i] = eps
	}
	for i := 1; i < n; i++ {
		for j := 0; j < i; j++ {
			if rng.Float64() < p {
				x[i*n+j] = float32(rng.IntN(17) - 8)
			}
		}
	}
	return x
}

// closeNaive is the paper's update on a matrix already in topological order.
func closeNaive(x []float32, n int) []float32 {
	w := make([]float32, n*n)
	for i := range w {
		w[i] = eps
	}
	for i := 0; i < n; i++ {
		w[i*n+i] = 0
	}
	for l := 0; l < n; l++ {
		for i := l + 1; i < n; i++ {
			xil := x[i*n+l]
			if xil == eps {
				continue
			}
			for j := 0; j <= l; j++ {
				if v := w[l*n+j]; v != eps && xil+v > w[i*n+j] {
					w[i*n+j] = xil + v
				}
			}
		}
	}
	return w
}

// emulate runs a schedule on the CPU with the kernels' semantics.
func emulate(t *testing.T, sc schedule, p []float32) {
	np := sc.NP
	bufs := [][]float32{p, make([]float32, max(sc.TempElems, 1)), make([]float32, max(sc.ZElems, 1))}
	for i := range bufs[1] {
		bufs[1][i] = float32(1e9) // poison: every read of scratch must follow a write
	}
	for i := range bufs[2] {
		bufs[2][i] = float32(1e9)
	}
	at := func(o operand, i, j int) float32 { return bufs[o.Buf][o.Off+int64(i)*o.LD+int64(j)] }
	for _, st := range sc.Steps {
		for b := 0; b < st.DiagCount; b++ {
			lo := st.DiagFirst + b*Block
			for i := 1; i < Block; i++ {
				row := make([]float32, i)
				for j := 0; j < i; j++ {
					acc := float32(eps)
					for k := j; k < i; k++ {
						acc = max(acc, p[(lo+i)*np+lo+k]+p[(lo+k)*np+lo+j])
					}
					row[j] = acc
				}
				copy(p[(lo+i)*np+lo:], row)
			}
		}
		// Products of one step are independent: compute all, then write.
		type out struct {
			g   gemmOp
			val []float32
		}
		var outs []out
		for _, g := range st.Gemms {
			if g.C.Buf == g.A.Buf && g.C.Buf == bufP && g.C.Off == g.A.Off {
				t.Fatalf("product writes its own operand: %+v", g)
			}
			v := make([]float32, g.M*g.N)
			for i := 0; i < g.M; i++ {
				for j := 0; j < g.N; j++ {
					acc := float32(eps)
					for k := 0; k < g.K; k++ {
						if (g.Flags&flagTriA != 0 && k > i) || (g.Flags&flagTriB != 0 && k < j) {
							continue
						}
						acc = max(acc, at(g.A, i, k)+at(g.B, k, j))
					}
					if g.Flags&flagAccumulate != 0 {
						acc = max(acc, at(g.C, i, j))
					}
					v[i*g.N+j] = acc
				}
			}
			outs = append(outs, out{g, v})
		}
		for _, o := range outs {
			for i := 0; i < o.g.M; i++ {
				for j := 0; j < o.g.N; j++ {
					bufs[o.g.C.Buf][o.g.C.Off+int64(i)*o.g.C.LD+int64(j)] = max(o.val[i*o.g.N+j], eps)
				}
			}
		}
	}
}

// padP builds P (np x np) from X in topological order, e on the diagonal.
func padP(x []float32, n, np int) []float32 {
	p := make([]float32, np*np)
	for i := range p {
		p[i] = eps
	}
	for i := 0; i < np; i++ {
		p[i*np+i] = 0
		if i < n {
			for j := 0; j < i; j++ {
				p[i*np+j] = x[i*n+j]
			}
		}
	}
	return p
}

// TestSchedules checks the fast closure schedules, single slab and column
// slabs for several GPUs, on the CPU against the paper's update, and the
// reassembly into the input's node order.
func TestSchedules(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 63, 64, 65, 130, 200, 333} {
		if testing.Short() && n > 200 {
			continue
		}
		x := randomLower(n, 0.3, rng)
		want := closeNaive(x, n)
		np := padded(n)
		for _, parts := range []int{1, 2, 3} {
			rs, err := cuda.SplitColumns(np, parts, Block)
			if err != nil {
				t.Fatal(err)
			}
			var slabs []slabData
			for _, r := range rs {
				if r.Len() == 0 {
					continue
				}
				sc, err := slabSchedule(np, r.Lo, r.Hi)
				if err != nil {
					t.Fatal(err)
				}
				p := padP(x, n, np)
				emulate(t, sc, p)
				sl := slabData{Lo: r.Lo, Hi: r.Hi, Val: make([]float32, (np-r.Lo)*r.Len())}
				for i := r.Lo; i < np; i++ {
					copy(sl.Val[(i-r.Lo)*r.Len():], p[i*np+r.Lo:i*np+r.Hi])
				}
				slabs = append(slabs, sl)
			}
			// Reassemble under a random relabelling: node v of the output is
			// topological node pos[v].
			perm := rng.Perm(n)
			pos := make([]int32, n)
			for a, v := range perm {
				pos[v] = int32(a)
			}
			w := make([]float32, n*n)
			assemble(w, n, pos, slabs)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if got, exp := w[i*n+j], want[int(pos[i])*n+int(pos[j])]; got != exp {
						t.Fatalf("n=%d parts=%d: W[%d,%d] = %v, want %v", n, parts, i, j, got, exp)
					}
				}
			}
		}
	}
}

func TestSlabScheduleArgs(t *testing.T) {
	for _, c := range [][3]int{{0, 0, 64}, {100, 0, 64}, {128, 32, 64}, {128, 64, 64}, {128, 0, 192}} {
		if _, err := slabSchedule(c[0], c[1], c[2]); err == nil {
			t.Errorf("slabSchedule%v must fail", c)
		}
	}
	sc, err := slabSchedule(4096, 0, 4096)
	if err != nil {
		t.Fatal(err)
	}
	// One diagonal launch and two per level (64 .. 2048): 13 launches.
	if len(sc.Steps) != 13 {
		t.Errorf("n=4096: %d steps, want 13", len(sc.Steps))
	}
	if sc.TempElems != 2048*2048 || sc.ZElems != 0 {
		t.Errorf("scratch %d, Z %d", sc.TempElems, sc.ZElems)
	}
}

func TestTopoFromPred(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5, 64, 65, 300} {
		x := randomLower(n, 0.2, rng)
		perm := rng.Perm(n) // topological node a is label perm[a]
		words := (n + 63) / 64
		pred := make([]uint64, n*words)
		arcs := [][2]int{}
		for a := 0; a < n; a++ {
			for b := 0; b < a; b++ {
				if x[a*n+b] != eps {
					i, l := perm[a], perm[b] // arc l -> i
					pred[i*words+l/64] |= 1 << (l % 64)
					arcs = append(arcs, [2]int{l, i})
				}
			}
		}
		for _, check := range []bool{false, true} {
			order, err := topoFromPred(n, words, pred, check)
			if err != nil {
				t.Fatal(err)
			}
			pos := inverse(order)
			if len(order) != n {
				t.Fatalf("n=%d: order of %d nodes", n, len(order))
			}
			for _, a := range arcs {
				if pos[a[0]] >= pos[a[1]] {
					t.Fatalf("n=%d: arc %d -> %d goes backwards", n, a[0], a[1])
				}
			}
		}
		if n < 2 || len(arcs) == 0 {
			continue
		}
		// A back arc closes a cycle.
		a := arcs[0]
		pred[a[0]*words+a[1]/64] |= 1 << (a[1] % 64)
		var ce *kleene.CycleError
		if _, err := topoFromPred(n, words, pred, true); !errors.As(err, &ce) {
			t.Errorf("n=%d: cycle not detected: %v", n, err)
		}
		order, err := topoFromPred(n, words, pred, false)
		if err != nil || len(order) != n {
			t.Errorf("n=%d: the unchecked search must still order every node: %v", n, err)
		}
	}
	// A self-loop is a cycle.
	pred := []uint64{0, 2}
	var ce *kleene.CycleError
	if _, err := topoFromPred(2, 1, pred, true); !errors.As(err, &ce) || ce.Node != 1 {
		t.Errorf("self-loop: %v", err)
	}
	if _, err := topoFromPred(100, 1, make([]uint64, 100), false); err == nil {
		t.Error("too few words per row must fail")
	}
}

// slabData is one device (the CPU emulation of the multi-GPU gather)'s share of X* in topological order: rows
// [lo, np) of the columns [lo, hi), row-major with leading dimension hi-lo.
type slabData struct {
	Lo, Hi int
	Val    []float32
}

// assemble writes X* in the input's node order from column slabs in
// topological order: W[i,j] = Y[pos[i], pos[j]] where pos[j] <= pos[i], ε
// above the diagonal. Rows are spread over goroutines.
func assemble(w []float32, n int, pos []int32, slabs []slabData) {
	slabOf := make([]int32, n)
	for j := 0; j < n; j++ {
		p := int(pos[j])
		for s, sl := range slabs {
			if p >= sl.Lo && p < sl.Hi {
				slabOf[j] = int32(s)
				break
			}
		}
	}
	workers := max(1, min(runtime.GOMAXPROCS(0), n/64))
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := g; i < n; i += workers {
				pi := int(pos[i])
				row := w[i*n : i*n+n]
				for j := range row {
					pj := int(pos[j])
					if pj > pi {
						row[j] = maxplus.Epsilon
						continue
					}
					sl := &slabs[slabOf[j]]
					wd := sl.Hi - sl.Lo
					row[j] = sl.Val[(pi-sl.Lo)*wd+(pj-sl.Lo)]
				}
			}
		}()
	}
	wg.Wait()
}
