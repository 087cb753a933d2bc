package domination

import (
	"context"
	"errors"
	"fmt"

	"github.com/semibench/semibench/internal/sysmem"
	"github.com/semibench/semibench/problems/minplus"
)

// Algorithm 2 on a device: the powers stay on the device in a
// minplus.Session (impls/cuda/minplus: cuda/paper, cuda/fast or
// cuda/sparse), and only each power's statistics (minimum, diagonal minimum
// and where, fingerprint) come back, so the host holds no N x N matrix
// while the powers run: m = 13 fits an 80 GB GPU with cuda/sparse.

// errStop ends a Session's power loop at the first repetition.
var errStop = errors.New("first repetition reached")

// session opens a Session on A(D_m) for the analysis' product, within the
// caller's memory limit.
func (an *Analysis) session(ctx context.Context, opt Options) (minplus.Session, error) {
	s, err := an.im.NewSession(ctx, an.digraph.A, minplus.SessionOptions{MemoryLimit: opt.MemoryLimit, GPUs: opt.GPUs, OneDevice: opt.OneDevice})
	if err != nil {
		return nil, fmt.Errorf("domination: m = %d: %w", an.M, err)
	}
	return s, nil
}

// algorithm2Session is algorithm2 on a Session: A^1..A^K (or up to the first
// repetition), each summarised on the device. Phase algorithm2 and the
// window of WindowAlgorithm2 end with the last power's statistics on the
// host (every Session call returns synchronised); the exact check of a
// repetition (unless opt.NoRecheck) and the session's Close come after. The
// repetition's exact check otherwise is left to Recheck, which recomputes
// the powers.
//
// From a checkpoint (resume non-nil) its power is set on the device and the
// loop goes on from there; a checkpoint due on the way downloads the power
// into host memory and writes it.
func (an *Analysis) algorithm2Session(ctx context.Context, opt Options, resume *Checkpoint) error {
	stop, ended := opt.Rec.Start("algorithm2"), false
	end := func() {
		if !ended {
			ended = true
			stop()
			opt.endAlgorithm2()
		}
	}
	defer end()
	s, err := an.session(ctx, opt)
	if err != nil {
		return err
	}
	defer s.Close()
	seen := an.replay(resume, opt.K)
	if resume != nil {
		if err := s.SetPower(ctx, resume.K(), resume.Power.Data); err != nil {
			return fmt.Errorf("domination: m = %d: resuming from %s: %w", an.M, an.ckpt.path, err)
		}
		resume.Power = nil // the device holds it now
	}
	var host *minplus.Dense // a checkpoint's copy of the power
	if opt.Impl.Search.whole() {
		// As the paper's versions 3 and 4: every power comes back to the
		// host, inside Algorithm 2, for the whole-matrix Algorithms 3-5
		// (version 3 uploads them again, pair by pair, to its Differ).
		an.kept = make([]*minplus.Dense, opt.K+1)
		if opt.Impl.Search.hostDiff() {
			an.scratch = make([]int16, an.N*an.N)
		}
	}
	var pair *pendingPair
	if opt.StopAtRepetition && !opt.NoRecheck { // checkRepetition's, while the device computes
		pair = an.preparePair(opt)
	}
	j := 0
	err = s.Powers(ctx, opt.K, func(st minplus.Stats) error {
		if st.Power != len(an.Powers) {
			return fmt.Errorf("statistics of A^%d where A^%d was expected", st.Power, len(an.Powers))
		}
		if an.kept != nil {
			d := &minplus.Dense{N: an.N, Data: make([]int16, an.N*an.N)}
			if err := s.Download(ctx, d.Data); err != nil {
				return fmt.Errorf("download of A^%d: %w", st.Power, err)
			}
			an.kept[st.Power] = d
		}
		p := powerOf(an.N, st)
		if err := an.checkResumed(resume, st.Power, p); err != nil {
			return err
		}
		var ok bool
		if j, ok = an.record(p, seen); ok && opt.StopAtRepetition {
			return errStop
		}
		return an.checkpoint(st.Power, st.Power == opt.K, func() (*minplus.Dense, error) {
			if host == nil {
				host = &minplus.Dense{N: an.N, Data: make([]int16, an.N*an.N)}
			}
			return host, s.Download(ctx, host.Data)
		})
	})
	end()
	first := 1
	if resume != nil {
		first = resume.K()
	}
	an.Updates = float64(s.Power()-first) * s.Updates()
	if errors.Is(err, ErrCheckpointed) {
		return err
	}
	if err != nil && !errors.Is(err, errStop) {
		return fmt.Errorf("domination: m = %d: algorithm 2 on %s: %w", an.M, an.Impl, err)
	}
	if err != nil && !opt.NoRecheck {
		// Stopped at the first repetition A^i ~ A^j: A^i is on the device.
		if err := an.checkRepetition(ctx, s, j, pair); err != nil {
			return err
		}
	}
	return s.Close()
}

// pendingPair is the two host matrices of the exact check at the first
// repetition, allocated and their pages touched on a goroutine while the
// device computes the powers: at m = 14 they are 2 x 214 GB, which a host
// that hands out its memory as it is used provides at a few GB/s.
type pendingPair struct {
	x, y *minplus.Dense
	err  error
	done chan struct{}
}

// preparePair starts allocating the exact check's two matrices (hostPair).
func (an *Analysis) preparePair(opt Options) *pendingPair {
	p := &pendingPair{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		if p.x, p.y, p.err = an.hostPair(opt); p.err == nil {
			sysmem.Touch(p.x.Data)
			sysmem.Touch(p.y.Data)
		}
	}()
	return p
}

// checkRepetition checks A^i = c ⊗ A^j exactly, i the session's current
// power (the first repetition) and j the earlier power with its
// fingerprint: A^i is downloaded, A^j recomputed from A (Restart) and
// downloaded, both compared entry by entry; 2·N² int16 on the host, the
// pair preparePair provides.
func (an *Analysis) checkRepetition(ctx context.Context, s minplus.Session, j int, pair *pendingPair) error {
	i := s.Power()
	c := int(an.Powers[i].Min) - int(an.Powers[j].Min)
	<-pair.done
	if pair.err != nil {
		return pair.err
	}
	x, y := pair.x, pair.y
	if err := s.Download(ctx, x.Data); err != nil {
		return fmt.Errorf("domination: m = %d: exact check: %w", an.M, err)
	}
	if err := s.Restart(ctx); err != nil {
		return fmt.Errorf("domination: m = %d: exact check: %w", an.M, err)
	}
	err := s.Powers(ctx, j, func(st minplus.Stats) error {
		if p := powerOf(an.N, st); p != an.Powers[st.Power] {
			return fmt.Errorf("power A^%d recomputed differs from the first computation", st.Power)
		}
		return nil
	})
	if err == nil {
		err = s.Download(ctx, y.Data)
	}
	if err != nil {
		return fmt.Errorf("domination: m = %d: exact check on %s: %w", an.M, an.Impl, err)
	}
	if err := exactShift(x, y, c); err != nil {
		return fmt.Errorf("domination: m = %d: A^%d and A^%d share a fingerprint but differ: %w", an.M, i, j, err)
	}
	an.Verified = fmt.Sprintf("A^%d = %d ⊗ A^%d checked entry by entry on the host (A^%d downloaded at the repetition, A^%d recomputed on %s)", i, c, j, i, j, an.Impl)
	return nil
}

// hostPair allocates the two N x N matrices of an exact check, refusing
// with the bytes needed when they do not fit in the memory that opt allows.
func (an *Analysis) hostPair(opt Options) (*minplus.Dense, *minplus.Dense, error) {
	need := 2 * minplus.Bytes(an.N)
	if limit := opt.memoryLimit(); need > limit {
		return nil, nil, fmt.Errorf("domination: m = %d: the exact check needs %s on the host for two powers, only %s available",
			an.M, byteText(need), byteText(limit))
	}
	return &minplus.Dense{N: an.N, Data: make([]int16, an.N*an.N)}, &minplus.Dense{N: an.N, Data: make([]int16, an.N*an.N)}, nil
}

// recheckSession recomputes A^n0 and A^(n0+a) on the device, downloads both and
// compares A^(n0+a) with b ⊗ A^n0 entry by entry: 2·N² int16 on the host.
func (an *Analysis) recheckSession(ctx context.Context, opt Options) error {
	x, y, err := an.hostPair(opt)
	if err != nil {
		return err
	}
	s, err := an.session(ctx, opt)
	if err != nil {
		return err
	}
	defer s.Close()
	err = s.Powers(ctx, an.N0+an.A, func(st minplus.Stats) error {
		if p := powerOf(an.N, st); p != an.Powers[st.Power] {
			return fmt.Errorf("power A^%d recomputed differs from the first computation", st.Power)
		}
		switch st.Power {
		case an.N0:
			return s.Download(ctx, x.Data)
		case an.N0 + an.A:
			return s.Download(ctx, y.Data)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("domination: m = %d: re-check on %s: %w", an.M, an.Impl, err)
	}
	if err := exactShift(y, x, an.B); err != nil {
		return fmt.Errorf("domination: m = %d: A^%d and A^%d share a fingerprint but differ: %w", an.M, an.N0+an.A, an.N0, err)
	}
	an.Verified = fmt.Sprintf("A^%d = %d ⊗ A^%d checked entry by entry after recomputing the powers on %s", an.N0+an.A, an.B, an.N0, an.Impl)
	return s.Close()
}
