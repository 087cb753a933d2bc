package domination

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/semibench/semibench/problems/minplus"
)

// randomCheckpoint returns a checkpoint of order n at power k with random
// contents.
func randomCheckpoint(r *rand.Rand, n, k int) *Checkpoint {
	c := &Checkpoint{M: 5, N: n, NNZ: 3 * n, Impl: "cpu/sparse", Powers: make([]Power, k+1),
		Power: &minplus.Dense{N: n, Data: make([]int16, n*n)}}
	for i := 1; i <= k; i++ {
		c.Powers[i] = Power{Min: int16(r.IntN(100)), DiagMin: int16(r.IntN(int(minplus.Inf))), DiagArg: int32(r.IntN(n)) - 1,
			Finite: r.IntN(2) == 1, Hash: [2]uint64{r.Uint64(), r.Uint64()}}
	}
	for i := range c.Power.Data {
		c.Power.Data[i] = int16(r.IntN(int(minplus.Inf) + 1))
	}
	return c
}

// TestCheckpointRoundTrip: what WriteCheckpoint writes, ReadCheckpoint
// reads back equal.
func TestCheckpointRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for _, c := range []struct{ n, k int }{{1, 1}, {7, 3}, {100, 50}} {
		want := randomCheckpoint(r, c.n, c.k)
		path := filepath.Join(dir, fmt.Sprintf("ck%d", c.n))
		if err := WriteCheckpoint(path, want); err != nil {
			t.Fatal(err)
		}
		got, err := ReadCheckpoint(path, want.M, want.N, want.NNZ)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("n=%d k=%d: read back %+v, wrote %+v", c.n, c.k, got, want)
		}
		if info, _ := os.Stat(path); info.Size() != checkpointBytes(c.n, c.k, len(want.Impl)) {
			t.Errorf("n=%d k=%d: %d bytes, want %d", c.n, c.k, info.Size(), checkpointBytes(c.n, c.k, len(want.Impl)))
		}
	}
	if err := WriteCheckpoint(filepath.Join(dir, "empty"), &Checkpoint{N: 2, Powers: []Power{{}}}); err == nil {
		t.Error("a checkpoint without a power written")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestCheckpointRefusals: a flipped byte anywhere in the power or the
// summaries fails the checksum; truncation, another magic or version, and
// another m, N or arc count are refused, each naming what is wrong.
func TestCheckpointRefusals(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	dir := t.TempDir()
	c := randomCheckpoint(r, 20, 4)
	path := filepath.Join(dir, "ck")
	if err := WriteCheckpoint(path, c); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	try := func(label string, data []byte, m, n, nnz int, want string) {
		t.Helper()
		bad := filepath.Join(dir, "bad")
		if err := os.WriteFile(bad, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadCheckpoint(bad, m, n, nnz)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error containing %q", label, err, want)
		}
	}
	flip := func(off int) []byte {
		b := append([]byte(nil), good...)
		b[off] ^= 0x10
		return b
	}
	head := 38 + len(c.Impl)
	try("power byte flipped", flip(len(good)-8-5), c.M, c.N, c.NNZ, "checksum")
	try("summary byte flipped", flip(head+3), c.M, c.N, c.NNZ, "checksum")
	try("checksum flipped", flip(len(good)-1), c.M, c.N, c.NNZ, "checksum")
	try("name flipped", flip(38), c.M, c.N, c.NNZ, "checksum")
	try("truncated", good[:len(good)-3], c.M, c.N, c.NNZ, "truncated or corrupt")
	try("extended", append(append([]byte(nil), good...), 0), c.M, c.N, c.NNZ, "truncated or corrupt")
	try("magic", flip(0), c.M, c.N, c.NNZ, "not a domination checkpoint")
	try("version", flip(9), c.M, c.N, c.NNZ, "format version 4097, this build reads version 1")
	try("other m", good, c.M+1, c.N, c.NNZ, "is for m = 5")
	try("other N", good, c.M, c.N+1, c.NNZ, "this run is m = 5 (N = 21")
	try("other arcs", good, c.M, c.N, c.NNZ+1, "61 arcs")
	try("empty", nil, c.M, c.N, c.NNZ, "header")
	if _, err := ReadCheckpoint(filepath.Join(dir, "absent"), c.M, c.N, c.NNZ); err == nil {
		t.Error("an absent checkpoint read")
	}
}

// hostSession is a minplus.Session on the host (cpu/sparse's product), so
// that Algorithm 2's session path, and its checkpoints, run without a GPU.
type hostSession struct {
	op  *minplus.Operand
	cur *minplus.Dense
	k   int
}

func (s *hostSession) N() int                  { return s.op.CSR.N }
func (s *hostSession) Power() int              { return s.k }
func (s *hostSession) Updates() float64        { return sparse.Product.Updates(s.N(), s.op.CSR.NNZ()) }
func (s *hostSession) LastStep() time.Duration { return 0 }
func (s *hostSession) Close() error            { return nil }
func (s *hostSession) Step(ctx context.Context) error {
	next := &minplus.Dense{N: s.N(), Data: make([]int16, s.N()*s.N())}
	if err := sparse.Product.Mul(ctx, next, s.op, s.cur, 1, nil); err != nil {
		return err
	}
	s.cur, s.k = next, s.k+1
	return nil
}
func (s *hostSession) Stats(context.Context) (minplus.Stats, error) {
	st := minplus.StatsOf(s.N(), s.cur.Data)
	st.Power = s.k
	return st, nil
}
func (s *hostSession) Download(_ context.Context, dst []int16) error {
	copy(dst, s.cur.Data)
	return nil
}
func (s *hostSession) Restart(context.Context) error {
	s.cur, s.k = s.op.CSR.ToDense(), 1
	return nil
}
func (s *hostSession) SetPower(_ context.Context, k int, src []int16) error {
	s.cur, s.k = &minplus.Dense{N: s.N(), Data: append([]int16(nil), src...)}, k
	return nil
}
func (s *hostSession) Powers(ctx context.Context, K int, each func(minplus.Stats) error) error {
	for {
		st, _ := s.Stats(ctx)
		if err := each(st); err != nil {
			return err
		}
		if s.k >= K {
			return nil
		}
		if err := s.Step(ctx); err != nil {
			return err
		}
	}
}

// hostSessionImpl runs Algorithm 2 through hostSession.
var hostSessionImpl = Impl{Name: "host-session", Product: minplus.Impl{Name: "host-session", Sparse: true,
	NewSession: func(_ context.Context, a *minplus.CSR, _ minplus.SessionOptions) (minplus.Session, error) {
		s := &hostSession{op: &minplus.Operand{CSR: a}}
		return s, s.Restart(context.Background())
	}}}

// outcome is what a resumed run must reproduce: the powers' summaries, the
// recurrence, γ2 and the formula, and witnesses.
func outcome(t *testing.T, an *Analysis) string {
	t.Helper()
	out, err := an.Summary(context.Background(), []int{3, 6, 9, 12, 15, 18, 21, 24, 27, 30})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCheckpointResume: a run stopped at a checkpoint (once, or twice) and
// resumed gives exactly the straight run's summaries, recurrence, γ2 and
// witnesses, for m = 4..7, on the CPU product and on a session, stopping
// at the first repetition or computing all K powers; a checkpoint written
// every few powers leaves the result alone; a passed deadline stops at the
// next power.
func TestCheckpointResume(t *testing.T) {
	ctx := context.Background()
	for _, im := range []Impl{sparse, hostSessionImpl} {
		for m := 4; m <= 7; m++ {
			if testing.Short() && m > 5 {
				continue
			}
			for _, stopAtRep := range []bool{true, false} {
				base := Options{Impl: im, StopAtRepetition: stopAtRep}
				straight, err := Analyze(ctx, m, base)
				if err != nil {
					t.Fatal(err)
				}
				want := outcome(t, straight)
				last := straight.Computed
				for _, stops := range [][]int{{1}, {2}, {last / 2}, {last - 1}, {2, last - 2}} {
					label := fmt.Sprintf("%s m=%d stop at repetition %v, stops %v", im.Name, m, stopAtRep, stops)
					path := filepath.Join(t.TempDir(), "ck")
					for _, k := range stops {
						opt := base
						opt.CheckpointPath, opt.StopAfter = path, k
						if _, err := Analyze(ctx, m, opt); !errors.Is(err, ErrCheckpointed) || !strings.Contains(err.Error(), fmt.Sprintf("A^%d written", k)) {
							t.Fatalf("%s: stopping at A^%d: %v", label, k, err)
						}
					}
					opt := base
					opt.CheckpointPath = path
					an, err := Analyze(ctx, m, opt)
					if err != nil {
						t.Fatalf("%s: resuming: %v", label, err)
					}
					if got := outcome(t, an); got != want {
						t.Errorf("%s: resumed run\n%s\nstraight run\n%s", label, got, want)
					}
					if an.Verified == "" {
						t.Errorf("%s: the resumed run's recurrence was not checked exactly", label)
					}
				}
				opt := base
				opt.CheckpointPath, opt.CheckpointEvery = filepath.Join(t.TempDir(), "every"), 3
				an, err := Analyze(ctx, m, opt)
				if err != nil {
					t.Fatal(err)
				}
				if got := outcome(t, an); got != want {
					t.Errorf("%s m=%d: run with checkpoints every 3 powers differs", im.Name, m)
				}
				c, err := ReadCheckpoint(opt.CheckpointPath, m, an.N, an.NNZ)
				if err != nil || c.K()%3 != 0 || c.K() >= last || !reflect.DeepEqual(c.Powers, an.Powers[:c.K()+1]) {
					t.Errorf("%s m=%d: checkpoint every 3 powers: %v, %v", im.Name, m, c.K(), err)
				}
			}
		}
	}
	// A deadline already passed stops at the next power each time.
	path := filepath.Join(t.TempDir(), "deadline")
	for k := 1; k <= 3; k++ {
		_, err := Analyze(ctx, 5, Options{Impl: sparse, CheckpointPath: path, Deadline: time.Now()})
		if !errors.Is(err, ErrCheckpointed) || !strings.Contains(err.Error(), fmt.Sprintf("A^%d written", k)) {
			t.Fatalf("deadline run %d: %v", k, err)
		}
	}
}

// TestCheckpointOptions: the checkpoint options are checked: counts must
// be non-negative, the stop and the interval need a path, the whole-matrix
// searches take none, a checkpoint of another m or beyond K is refused,
// and so is a negative --gpus.
func TestCheckpointOptions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ck")
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Impl: sparse, StopAfter: 3}, "need a CheckpointPath"},
		{Options{Impl: sparse, CheckpointPath: path, CheckpointEvery: -1}, "non-negative"},
		{Options{Impl: whole(SearchWholeSequential), CheckpointPath: path}, "takes no checkpoints"},
		{Options{Impl: sparse, GPUs: -1}, "--gpus -1"},
	} {
		if _, err := Analyze(ctx, 4, c.opt); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error containing %q", c.opt, err, c.want)
		}
	}
	if _, err := Analyze(ctx, 4, Options{Impl: sparse, CheckpointPath: path, StopAfter: 9}); !errors.Is(err, ErrCheckpointed) {
		t.Fatal(err)
	}
	if _, err := Analyze(ctx, 5, Options{Impl: sparse, CheckpointPath: path}); err == nil || !strings.Contains(err.Error(), "is for m = 4") {
		t.Errorf("a checkpoint of m = 4 resumed for m = 5: %v", err)
	}
	if _, err := Analyze(ctx, 4, Options{Impl: sparse, CheckpointPath: path, K: 8}); err == nil || !strings.Contains(err.Error(), "beyond the K = 8") {
		t.Errorf("a checkpoint of A^9 resumed with K = 8: %v", err)
	}
}
