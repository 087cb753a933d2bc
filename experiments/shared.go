package experiments

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/semibench/semibench/bench"
)

// Shared is one run's store of work that several cells need: the 50
// (min,+) powers of A(D_m) that six domination experiments read, Rote's
// sweep, a generated instance with its content digest and reference
// answer. Each piece of work is named by a key that says what it is
// ("domination powers m=10 impl=cpu/sparse K=50", "lapcost n=4096
// range=n seed=1"), is computed once, by the first caller that asks, while
// every concurrent caller of the same key waits for that one result, and
// is kept for the rest of the run within a memory bound: the least
// recently used pieces are dropped when a new one would exceed it, or when
// a case needs the machine's memory (MakeRoom). A piece dropped is
// computed again by the next caller that asks.
//
// The runner creates one per run (Options.Shared) and releases it at the
// run's end. A nil *Shared shares nothing: every request computes.
type Shared struct {
	mu      sync.Mutex
	limit   uint64 // bytes the kept pieces may hold
	used    uint64 // bytes the kept pieces hold
	tick    uint64 // the use clock, for least recently used
	entries map[string]*sharedEntry
	// computed and reused count, per key, the requests that computed and
	// those that read a piece another had computed.
	computed, reused map[string]int
}

// sharedEntry is one piece of work: computing (done open) or computed.
type sharedEntry struct {
	key   string
	by    string        // the caller that computed it
	done  chan struct{} // closed once val and err are set
	val   any
	err   error
	bytes uint64
	last  uint64 // the use clock at its last request
	kept  bool   // counted in used, listed in entries
}

// NewShared returns an empty store whose pieces may hold limit bytes; 0
// means a quarter of the memory available on this machine now (1 GiB when
// that is unknown).
func NewShared(limit uint64) *Shared {
	if limit == 0 {
		limit = 1 << 30
		if a := bench.AvailableMemory(); a > 0 {
			limit = a / 4
		}
	}
	return &Shared{limit: limit, entries: map[string]*sharedEntry{}, computed: map[string]int{}, reused: map[string]int{}}
}

// Limit is the bytes the store's pieces may hold.
func (s *Shared) Limit() uint64 {
	if s == nil {
		return 0
	}
	return s.limit
}

// Release drops every piece: the end of the run. The store stays usable
// (a later request computes again).
func (s *Shared) Release() {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, e := range s.entries {
		if e.kept {
			delete(s.entries, k)
			e.kept = false
		}
	}
	s.used = 0
}

// Holds reports whether the store keeps a computed piece named key.
func (s *Shared) Holds(key string) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entries[key]
	return e != nil && e.kept
}

// MakeRoom drops the least recently used pieces until need bytes are
// available on this machine (bench.AvailableMemory) or no piece is left,
// and returns the freed memory to the operating system; a case calls it
// before its own memory check, so that work kept for later never makes a
// case fail for memory. It reports whether anything was dropped.
func (s *Shared) MakeRoom(need uint64) bool {
	if s == nil {
		return false
	}
	dropped := false
	for {
		if a := bench.AvailableMemory(); a == 0 || a >= need {
			return dropped
		}
		s.mu.Lock()
		ok := s.dropOldest()
		s.mu.Unlock()
		if !ok {
			return dropped
		}
		dropped = true
		runtime.GC()
		debug.FreeOSMemory()
	}
}

// dropOldest drops the least recently used computed piece; s.mu is held.
func (s *Shared) dropOldest() bool {
	var old *sharedEntry
	for _, e := range s.entries {
		if e.kept && (old == nil || e.last < old.last) {
			old = e
		}
	}
	if old == nil {
		return false
	}
	delete(s.entries, old.key)
	old.kept = false
	s.used -= old.bytes
	slog.Debug("shared work dropped", "key", old.key, "bytes", old.bytes)
	return true
}

// SharedCounts are a store's counts of one key: the computations of the
// piece (through the store, and those a cell that measures the piece does
// again in each of its repetitions, countComputed) and the requests that
// read it computed by another.
type SharedCounts struct {
	Computed, Reused int
}

// CountComputed counts a computation of key done outside the store: a
// repetition of the cell that measures it.
func (s *Shared) CountComputed(key string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.computed[key]++
}

// Counts returns, per key, how often its piece was computed and read.
func (s *Shared) Counts() map[string]SharedCounts {
	out := map[string]SharedCounts{}
	if s == nil {
		return out
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, n := range s.computed {
		c := out[k]
		c.Computed = n
		out[k] = c
	}
	for k, n := range s.reused {
		c := out[k]
		c.Reused = n
		out[k] = c
	}
	return out
}

// Summary is one line on the store's work for a log: pieces computed,
// requests that read one computed before, and the keys read most.
func (s *Shared) Summary() string {
	counts := s.Counts()
	keys := make([]string, 0, len(counts))
	computed, reused := 0, 0
	for k, c := range counts {
		keys = append(keys, k)
		computed += c.Computed
		reused += c.Reused
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]].Reused != counts[keys[j]].Reused {
			return counts[keys[i]].Reused > counts[keys[j]].Reused
		}
		return keys[i] < keys[j]
	})
	var top []string
	for _, k := range keys[:min(len(keys), 3)] {
		if counts[k].Reused > 0 {
			top = append(top, fmt.Sprintf("%s (read %d times)", k, counts[k].Reused))
		}
	}
	line := fmt.Sprintf("shared work: %d computations (repetitions of the cells that measure them included), %d requests read a piece computed before", computed, reused)
	if len(top) > 0 {
		line += "; most read: " + strings.Join(top, ", ")
	}
	return line
}

// Generated instances are shared by the experiments of a run (each paper's
// *_instances.go). An instance is
// generated and digested once per run per (generator, parameters, seed),
// with the reference answer its checks compare against, and read by every
// case of every experiment that uses the same input: the LAP costs of
// hungarian/table1, fig4 and fig5 (and of the tables derived from table1
// when it is not in the run), the random DAGs of kleene/table2 and table3,
// the trees of treefix/table1, fig4, fig6 and fig7.
// Inputs are read-only to every implementation (the cells of one case
// already shared them), so a shared instance is never copied. Timings are
// unaffected: generation, digest and reference are outside every timed
// window, so the cells say nothing of it; the record's input (generator,
// seed, digest) shows the instance is the same.

// Obtain returns the piece of work named key: the one the run computed
// before, or, when there is none, the result of compute, called by this
// caller alone while every concurrent caller of key waits for it (or for
// its own ctx). by names the caller (a cell's Key, or what else asks); from
// is the caller that computed the piece, by itself when fresh (this call
// computed it). compute returns the piece and the bytes it holds; a piece
// larger than the store's limit is returned but not kept. An error is not
// kept either: a waiting caller then computes in its turn.
func Obtain[T any](ctx context.Context, s *Shared, key, by string, compute func(ctx context.Context) (T, uint64, error)) (v T, from string, fresh bool, err error) {
	if s == nil {
		v, _, err = compute(ctx)
		return v, by, true, err
	}
	for {
		s.mu.Lock()
		e := s.entries[key]
		if e == nil {
			e = &sharedEntry{key: key, by: by, done: make(chan struct{})}
			s.entries[key] = e
			s.mu.Unlock()
			return computeEntry(ctx, s, e, compute)
		}
		s.tick++
		e.last = s.tick
		s.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return v, "", false, ctx.Err()
		}
		if e.err != nil {
			continue // the computing caller failed (or was stopped): try again
		}
		s.mu.Lock()
		s.reused[key]++
		s.mu.Unlock()
		v, _ = e.val.(T)
		return v, e.by, false, nil
	}
}

// computeEntry computes e for obtain, keeps it within the limit and wakes
// its waiters.
func computeEntry[T any](ctx context.Context, s *Shared, e *sharedEntry, compute func(ctx context.Context) (T, uint64, error)) (v T, from string, fresh bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.mu.Lock()
			delete(s.entries, e.key)
			e.err = fmt.Errorf("shared work %q: panic: %v", e.key, r)
			close(e.done)
			s.mu.Unlock()
			panic(r)
		}
	}()
	v, bytes, err := compute(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.computed[e.key]++
	e.val, e.err, e.bytes = v, err, bytes
	s.tick++
	e.last = s.tick
	switch {
	case err != nil:
		delete(s.entries, e.key)
	case bytes > s.limit:
		delete(s.entries, e.key) // returned to this caller and its waiters only
		slog.Debug("shared work too large to keep", "key", e.key, "bytes", bytes, "limit", s.limit)
	default:
		for s.used+bytes > s.limit && s.dropOldest() {
		}
		e.kept = true
		s.used += bytes
	}
	close(e.done)
	return v, e.by, true, err
}

// CellKey names a cell as bench.Record.Key does: experiment|impl|params.
func CellKey(experiment, impl string, p bench.Params) string {
	return (&bench.Record{Experiment: experiment, Impl: impl, Params: p}).Key()
}

// ReusedNotes are table notes listing, per implementation, the cells of
// an experiment that read work another cell of the run computed
// (bench.Record.ReusedFrom), with where it came from; what their phases
// then measure is the experiment's to say (what, appended when not empty).
func ReusedNotes(recs []bench.Record, experiment, what string) []string {
	type group struct {
		impl, from string
		params     []string
	}
	var groups []*group
	for _, r := range recs {
		if r.Experiment != experiment || r.ReusedFrom == "" || !Ran(&r) {
			continue
		}
		from := r.ReusedFrom
		if parts := strings.Split(from, "|"); len(parts) == 3 && !strings.Contains(parts[0], " ") {
			from = parts[0] + " " + parts[1] + "'s cell" // a cell's Key: its experiment and implementation
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return g.impl == r.Impl && g.from == from })
		if i < 0 {
			groups = append(groups, &group{impl: r.Impl, from: from})
			i = len(groups) - 1
		}
		groups[i].params = append(groups[i].params, r.Params.String())
	}
	if len(groups) == 0 {
		return nil
	}
	parts := make([]string, len(groups))
	for i, g := range groups {
		parts[i] = fmt.Sprintf("%s at %s from %s", g.impl, strings.Join(g.params, ", "), g.from)
	}
	note := "Work computed once in this run and read here (the record's reused_from): " + strings.Join(parts, "; ") + "."
	if what != "" {
		note += " " + what
	}
	return []string{note}
}

// ReusedPhaseText is CellText of a record's phase or, for a cell that read
// another's work (ReusedFrom) and did not time that phase itself, the
// named cell's, marked †.
func ReusedPhaseText(run []bench.Record, r *bench.Record, phase string) string {
	if r == nil || r.ReusedFrom == "" || r.Phase(phase) != nil {
		return CellText(r, phase)
	}
	for i := range run {
		if run[i].Key() == r.ReusedFrom && run[i].Phase(phase) != nil {
			return CellText(&run[i], phase) + " †"
		}
	}
	return CellText(r, phase)
}
