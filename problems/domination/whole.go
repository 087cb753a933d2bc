package domination

import (
	"context"
	"fmt"
	"runtime"

	"github.com/semibench/semibench/problems/minplus"
)

// Algorithms 3 to 5 as the paper computes them (section 3, its listings):
// every power A^1..A^K is kept in host memory after Algorithm 2, and
// "A^i - A^j == constant" is the difference matrix computed entry by entry,
// then scanned for one constant; Algorithm 5 reads the main diagonal of
// each A^n. The difference runs on one thread (the paper's sequential
// version) or by bands of rows on every thread (its OpenMP versions); the
// scan, as in the paper's program, runs on one thread and stops at the
// first entry off the constant. Its version 3 computes the differences on
// the GPU instead (SearchWholeDevice): each pair of kept powers is uploaded
// to a minplus.Differ, which computes the difference matrix and reduces it
// to a minplus.DiffSummary there; the few numbers come back. The encoding
// (minplus.DiffEntry) and the verdict are the host's.

// Search selects how Algorithms 3 to 5 read the powers.
type Search int

const (
	// SearchFingerprints reads each power's fingerprint, minimum and
	// diagonal minimum, kept while Algorithm 2 ran (the default); a match is
	// re-checked entry by entry once.
	SearchFingerprints Search = iota
	// SearchWholeSequential keeps every power and compares whole matrices
	// entry by entry on one thread (Table 5's version 1).
	SearchWholeSequential
	// SearchWholeParallel keeps every power and computes each difference
	// matrix by bands of rows on Options.Threads goroutines (Table 5's
	// versions 2 and 4, the paper's OpenMP difference).
	SearchWholeParallel
	// SearchWholeDevice keeps every power in host memory as the whole
	// searches do and computes each difference of Algorithms 3 and 4 on a
	// device (Impl.NewDiffer): both powers uploaded, the difference matrix
	// and its summary computed there (Table 5's version 3). Algorithm 5
	// reads the diagonals on the host, as the paper's.
	SearchWholeDevice
)

// String names the search for messages.
func (s Search) String() string {
	switch s {
	case SearchWholeSequential:
		return "whole matrices, sequential"
	case SearchWholeParallel:
		return "whole matrices, parallel"
	case SearchWholeDevice:
		return "whole matrices, differences on the device"
	}
	return "fingerprints"
}

// whole reports whether the search keeps and compares whole matrices.
func (s Search) whole() bool {
	return s == SearchWholeSequential || s == SearchWholeParallel || s == SearchWholeDevice
}

// hostDiff reports whether the search computes its differences on the
// host, into a scratch matrix there.
func (s Search) hostDiff() bool { return s == SearchWholeSequential || s == SearchWholeParallel }

// MemoryNeededWhole is the host memory, in bytes, that Algorithm 2 with a
// whole-matrix search needs: the K powers kept (and a spare for the
// product's output), the difference matrix unless s computes it on a
// device, and a dense A(D_m) for the dense CPU products. On a GPU the
// powers are computed on the device and each is downloaded into the same K
// host matrices.
func MemoryNeededWhole(m, k int, p minplus.Impl, s Search) (uint64, int, error) {
	n, err := Rows(m)
	if err != nil {
		return 0, 0, err
	}
	mats := uint64(k) + 1
	if s != SearchWholeDevice {
		mats++
	}
	if hostDense(p) {
		mats++
	}
	return mats * minplus.Bytes(n), n, nil
}

// searchThreads is the goroutines of a difference: 1 for the sequential
// search, else opt.Threads (0: all CPUs).
func searchThreads(s Search, threads int) int {
	if s == SearchWholeSequential {
		return 1
	}
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	return threads
}

// constDiff reports whether A^i - A^j is constant and the constant: on
// the analysis' Differ when it has one (SearchWholeDevice), else computing
// the difference of the kept powers into the scratch matrix on threads
// goroutines and scanning it.
func (an *Analysis) constDiff(ctx context.Context, i, j, threads int) (int, bool, error) {
	if an.differ != nil {
		c, ok, err := an.differ.ConstDiff(ctx, an.kept[i], an.kept[j])
		if err != nil {
			return 0, false, fmt.Errorf("domination: m = %d: A^%d - A^%d: %w", an.M, i, j, err)
		}
		return c, ok, nil
	}
	minplus.Difference(an.scratch, an.kept[i], an.kept[j], threads)
	c, ok := minplus.Constant(an.scratch)
	return c, ok, nil
}

// checkKept fails unless Algorithm 2 kept every power (a whole search)
// and, for Algorithms 3 and 4, a difference can be computed (the scratch
// matrix or a Differ).
func (an *Analysis) checkKept(alg int) error {
	if len(an.kept) <= an.Computed || alg != 5 && an.scratch == nil && an.differ == nil {
		return fmt.Errorf("domination: m = %d: algorithm %d on whole matrices needs every power kept (Impl.Search)", an.M, alg)
	}
	return nil
}

// Algorithm3Whole is the paper's Algorithm 3 on the kept powers: for i
// from the last power down and j from i-1 down, the first pair whose
// difference matrix A^i - A^j is constant gives a = i - j, b the
// constant, r0 = j. threads: goroutines of each difference on the host
// (1: sequential); with a Differ (SearchWholeDevice) each difference is
// computed on it instead.
func (an *Analysis) Algorithm3Whole(ctx context.Context, threads int) error {
	if err := an.checkKept(3); err != nil {
		return err
	}
	for i := an.Computed; i >= 1; i-- {
		for j := i - 1; j >= 1; j-- {
			c, ok, err := an.constDiff(ctx, i, j, threads)
			if err != nil {
				return err
			}
			if ok {
				an.A, an.B, an.R0 = i-j, c, j
				return nil
			}
		}
	}
	return fmt.Errorf("domination: m = %d: algorithm 3 (whole matrices): %w (%d powers)", an.M, ErrNoRecurrence, an.Computed)
}

// Algorithm4Whole is the paper's Algorithm 4 on the kept powers: from
// i = r0 + a down, while A^i - A^(i-a) is the constant matrix b, n0 = i - a.
// The n0 + a found must be where the powers' fingerprints first repeated
// while Algorithm 2 ran (the two searches agree); the recurrence is then
// checked entry by entry. threads and the Differ as Algorithm3Whole's.
func (an *Analysis) Algorithm4Whole(ctx context.Context, threads int) error {
	if err := an.checkKept(4); err != nil {
		return err
	}
	if an.A == 0 {
		return fmt.Errorf("domination: m = %d: algorithm 4 before algorithm 3", an.M)
	}
	an.N0 = an.R0
	for i := an.R0 + an.A; i-an.A >= 1; i-- {
		c, ok, err := an.constDiff(ctx, i, i-an.A, threads)
		if err != nil {
			return err
		}
		if !ok || c != an.B {
			break
		}
		an.N0 = i - an.A
	}
	if an.RepeatAt != an.N0+an.A {
		return fmt.Errorf("domination: m = %d: algorithm 4 (whole matrices) gives n0 + a = %d but the fingerprints first repeat at %d",
			an.M, an.N0+an.A, an.RepeatAt)
	}
	where := "the whole matrices"
	if an.differ != nil {
		where += " (each difference on the device)"
	}
	an.Verified = fmt.Sprintf("A^i = %d ⊗ A^(i-%d) for %d <= i <= %d checked entry by entry by Algorithms 3 and 4 on %s",
		an.B, an.A, an.N0+an.A, an.R0+an.A, where)
	return nil
}

// Algorithm5Whole is the paper's Algorithm 5 on the kept powers: γ2 is the
// minimum of A^n's main diagonal, read from the matrix, for 3 <= n < n0 + a.
func (an *Analysis) Algorithm5Whole() error {
	if err := an.checkKept(5); err != nil {
		return err
	}
	last := an.N0 + an.A - 1
	an.Gamma = make([]int, last+1)
	for n := 3; n <= last; n++ {
		d, g := an.kept[n], minplus.Inf
		for i := 0; i < d.N; i++ {
			g = min(g, d.Data[i*d.N+i])
		}
		if g != an.Powers[n].DiagMin {
			return fmt.Errorf("domination: m = %d: algorithm 5 (whole matrices): min diagonal of A^%d is %d, Algorithm 2's statistics %d",
				an.M, n, g, an.Powers[n].DiagMin)
		}
		an.Gamma[n] = int(g)
	}
	an.deriveFormula()
	return nil
}
