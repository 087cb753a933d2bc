package domination

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/problems/minplus"
)

// whole is the whole-matrix search s on cpu/sparse; SearchWholeDevice
// gets a hostDiffer.
func whole(s Search) Impl {
	im := Impl{Name: "whole", Product: sparse.Product, Search: s}
	if s == SearchWholeDevice {
		im.NewDiffer = func(_ context.Context, n int, _ minplus.SessionOptions) (minplus.Differ, error) {
			d := &hostDiffer{d: make([]int16, n*n)}
			differs = append(differs, d)
			return d, nil
		}
	}
	return im
}

// hostDiffer is a minplus.Differ on the host that works as the device's
// does: the whole difference matrix, then its summary (not the scan).
type hostDiffer struct {
	d      []int16
	calls  int
	closed bool
}

// differs lists the hostDiffers that whole's NewDiffer opened.
var differs []*hostDiffer

func (h *hostDiffer) ConstDiff(_ context.Context, x, y *minplus.Dense) (int, bool, error) {
	if h.closed {
		return 0, false, errors.New("hostDiffer closed")
	}
	h.calls++
	minplus.Difference(h.d, x, y, 2)
	c, ok := minplus.SummarizeDiff(h.d).Constant()
	return c, ok, nil
}

func (h *hostDiffer) Close() error { h.closed = true; return nil }

// TestWholeSearchAgrees runs Algorithms 3-5 on the whole matrices,
// sequentially, in parallel and on a Differ (a host one here), and compares every value with the
// fingerprint search and with the paper's Tables 3 and 4 (m <= 6; m = 7
// unless -short).
func TestWholeSearchAgrees(t *testing.T) {
	for _, row := range paperTables {
		if row.m > 7 || row.m == 7 && testing.Short() {
			continue
		}
		fp, err := Analyze(context.Background(), row.m, Options{Impl: sparse})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []Search{SearchWholeSequential, SearchWholeParallel, SearchWholeDevice} {
			differs = nil
			rec := &bench.Recorder{}
			an, err := Analyze(context.Background(), row.m, Options{Impl: whole(s), Threads: 3, Rec: rec})
			if err != nil {
				t.Fatalf("m=%d, %v: %v", row.m, s, err)
			}
			if got, want := [4]int{an.R0, an.A, an.B, an.N0}, [4]int{row.r0, row.a, row.b, row.n0}; got != want {
				t.Errorf("m=%d, %v: (r0, a, b, n0) = %v, paper %v", row.m, s, got, want)
			}
			if !reflect.DeepEqual(an.Gamma, fp.Gamma) || !reflect.DeepEqual(an.Alpha, fp.Alpha) || !reflect.DeepEqual(an.Exceptions, fp.Exceptions) {
				t.Errorf("m=%d, %v: γ2, α or exceptions differ from the fingerprint search's", row.m, s)
			}
			if !strings.Contains(an.Verified, "whole matrices") {
				t.Errorf("m=%d, %v: Verified = %q", row.m, s, an.Verified)
			}
			if an.kept != nil || an.scratch != nil || an.differ != nil {
				t.Errorf("m=%d, %v: the kept powers or the Differ were not released", row.m, s)
			}
			if s == SearchWholeDevice && (len(differs) != 1 || differs[0].calls == 0 || !differs[0].closed) {
				t.Errorf("m=%d, %v: want one Differ opened, used and closed; got %d", row.m, s, len(differs))
			}
			names, _ := rec.Durations()
			for _, ph := range []string{"algorithm2", "algorithm3", "algorithm4", "algorithm5"} {
				if !slices.Contains(names, ph) {
					t.Errorf("m=%d, %v: phase %s not recorded", row.m, s, ph)
				}
			}
		}
	}
}

// TestWholeSearchRefusals: the whole search needs every power kept, all K
// of them, and the memory for them.
func TestWholeSearchRefusals(t *testing.T) {
	ctx := context.Background()
	an, err := Analyze(ctx, 4, Options{Impl: sparse})
	if err != nil {
		t.Fatal(err)
	}
	if err := an.Algorithm3Whole(ctx, 1); err == nil || !strings.Contains(err.Error(), "every power kept") {
		t.Errorf("Algorithm3Whole on a fingerprint analysis: %v", err)
	}
	if err := an.Algorithm5Whole(); err == nil {
		t.Error("Algorithm5Whole on a fingerprint analysis: no error")
	}
	if _, err := Analyze(ctx, 4, Options{Impl: whole(SearchWholeParallel), StopAtRepetition: true}); err == nil {
		t.Error("whole search with StopAtRepetition: no error")
	}
	need, _, err := MemoryNeededWhole(6, DefaultK, sparse.Product, SearchWholeSequential)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Analyze(ctx, 6, Options{Impl: whole(SearchWholeSequential), MemoryLimit: need - 1}); err == nil || !strings.Contains(err.Error(), "available") {
		t.Errorf("whole search beyond the memory limit: %v", err)
	}
	if _, err := Analyze(ctx, 6, Options{Impl: whole(SearchWholeSequential), MemoryLimit: need}); err != nil {
		t.Errorf("whole search within the memory limit: %v", err)
	}
	// The device search keeps no difference matrix on the host, and needs a
	// Differ, which only it takes.
	dev, n, err := MemoryNeededWhole(6, DefaultK, sparse.Product, SearchWholeDevice)
	if err != nil || need-dev != minplus.Bytes(n) {
		t.Errorf("MemoryNeededWhole on the device: %d bytes (%v), host search %d: want one n x n matrix less", dev, err, need)
	}
	noDiffer := whole(SearchWholeDevice)
	noDiffer.NewDiffer = nil
	withDiffer := whole(SearchWholeParallel)
	withDiffer.NewDiffer = whole(SearchWholeDevice).NewDiffer
	for _, im := range []Impl{noDiffer, withDiffer} {
		if _, err := Analyze(ctx, 4, Options{Impl: im}); err == nil || !strings.Contains(err.Error(), "NewDiffer") {
			t.Errorf("%v with NewDiffer %v: %v", im.Search, im.NewDiffer != nil, err)
		}
	}
}
