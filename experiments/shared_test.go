package experiments

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semibench/semibench/bench"
)

// TestSharedComputesOnceUnderConcurrentRequests asks for one key from many
// goroutines at once: one computes, every other waits and reads its value.
func TestSharedComputesOnceUnderConcurrentRequests(t *testing.T) {
	s := NewShared(1 << 20)
	var calls atomic.Int32
	start := make(chan struct{})
	const n = 32
	type got struct {
		v     *int
		from  string
		fresh bool
		err   error
	}
	res := make([]got, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			v, from, fresh, err := Obtain(context.Background(), s, "piece", CellKey("e", "impl", bench.Params{{Name: "i", Value: string(rune('a' + i))}}),
				func(context.Context) (*int, uint64, error) {
					calls.Add(1)
					time.Sleep(20 * time.Millisecond) // long enough for every other request to arrive
					x := 42
					return &x, 8, nil
				})
			res[i] = got{v, from, fresh, err}
		}()
	}
	close(start)
	wg.Wait()
	if c := calls.Load(); c != 1 {
		t.Fatalf("computed %d times, want once", c)
	}
	fresh := 0
	var by string
	for _, r := range res {
		if r.err != nil || r.v == nil || *r.v != 42 || r.v != res[0].v {
			t.Fatalf("a request got %v, %v; want the one value 42", r.v, r.err)
		}
		if r.fresh {
			fresh++
			by = r.from
		}
	}
	if fresh != 1 {
		t.Fatalf("%d requests say they computed, want 1", fresh)
	}
	for _, r := range res {
		if r.from != by {
			t.Errorf("from = %q, want the computing caller %q", r.from, by)
		}
	}
	if c := s.Counts()["piece"]; c.Computed != 1 || c.Reused != n-1 {
		t.Errorf("counts %+v, want 1 computed, %d reused", c, n-1)
	}
}

// TestSharedErrorsAreNotKept: a failed computation is computed again by
// the next request, and a waiter whose own context ends stops waiting.
func TestSharedErrorsAreNotKept(t *testing.T) {
	s := NewShared(1 << 20)
	fail := errors.New("stopped")
	_, _, _, err := Obtain(context.Background(), s, "k", "a", func(context.Context) (int, uint64, error) { return 0, 0, fail })
	if !errors.Is(err, fail) {
		t.Fatalf("err = %v, want %v", err, fail)
	}
	v, from, fresh, err := Obtain(context.Background(), s, "k", "b", func(context.Context) (int, uint64, error) { return 7, 1, nil })
	if err != nil || v != 7 || from != "b" || !fresh {
		t.Fatalf("second request: %d, %q, fresh %v, %v; want 7 computed by b", v, from, fresh, err)
	}

	release := make(chan struct{})
	go Obtain(context.Background(), s, "slow", "a", func(context.Context) (int, uint64, error) { <-release; return 1, 1, nil })
	for s.Counts()["slow"] == (SharedCounts{}) && !inFlight(s, "slow") {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, _, _, err := Obtain(ctx, s, "slow", "b", func(context.Context) (int, uint64, error) { return 2, 1, nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiter: err = %v, want its deadline", err)
	}
	close(release)
}

func inFlight(s *Shared, key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entries[key] != nil
}

// TestSharedMemoryBound: pieces beyond the limit drop the least recently
// used; a piece larger than the limit is returned but not kept; Release
// drops everything; a nil store shares nothing.
func TestSharedMemoryBound(t *testing.T) {
	s := NewShared(100)
	calls := map[string]int{}
	get := func(key string, bytes uint64) {
		t.Helper()
		if _, _, _, err := Obtain(context.Background(), s, key, "t", func(context.Context) (string, uint64, error) {
			calls[key]++
			return key, bytes, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	get("a", 40)
	get("b", 40)
	get("a", 40) // a is now the more recently used
	get("c", 40) // drops b
	get("a", 40)
	get("b", 40) // computed again
	if calls["a"] != 1 || calls["b"] != 2 || calls["c"] != 1 {
		t.Errorf("computations %v, want a once, b twice (dropped), c once", calls)
	}
	get("huge", 500)
	get("huge", 500)
	if calls["huge"] != 2 {
		t.Errorf("a piece beyond the limit was kept (%d computations)", calls["huge"])
	}
	if !s.Holds("a") || !s.Holds("b") || s.Holds("c") || s.Holds("huge") || s.Holds("never") {
		t.Errorf("Holds: a %v, b %v (kept); c %v (dropped for b), huge %v (beyond the limit), never %v (never asked)",
			s.Holds("a"), s.Holds("b"), s.Holds("c"), s.Holds("huge"), s.Holds("never"))
	}
	if s.used > s.limit {
		t.Errorf("%d bytes kept, limit %d", s.used, s.limit)
	}
	s.Release()
	get("a", 40)
	if calls["a"] != 2 || s.used != 40 {
		t.Errorf("after Release: a computed %d times, %d bytes kept", calls["a"], s.used)
	}

	var none *Shared
	if none.Holds("a") {
		t.Error("a nil store holds a piece")
	}
	n := 0
	for range 2 {
		Obtain(context.Background(), none, "k", "t", func(context.Context) (int, uint64, error) { n++; return n, 0, nil })
	}
	if n != 2 {
		t.Errorf("a nil store computed %d times for 2 requests, want 2", n)
	}
	none.Release()
	none.MakeRoom(1)
}
