package cudalap

import (
	"fmt"
	"math/bits"
	"time"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/impls/cuda/driver"
)

// forestModule is the forest search's kernel source (kernels/lap_forest.cu).
const forestModule = "lap_forest"

// PhaseForest is the forest search's phase: every phase of it, after
// cuda/paper's steps 1 and 2, in one cooperative launch (CUDA events).
const PhaseForest = "forest"

// Words of the forest's control buffer (int64, kernels/lap_forest.cu).
const (
	forestError  = 1
	forestRounds = 2
	forestLevels = 3
	forestDuals  = 4
	forestTimes  = 20 // block 0's time in each section, when timed
	forestWords  = 64 // the barriers' passage words are words 32 and 48
)

// forestTimed (int32 1) has the forest kernel time its sections in block
// 0 (PaperCounts.ForestSections; benchmarks read them).
var forestTimed int32

// forestEntryBytes is the size of a list entry (ForestEntry in
// kernels/lap_forest.cu: column, tree, key offset).
const forestEntryBytes = 16

// ForestPlan is the device memory the forest search adds to PaperPlan for
// an order-n instance: its duals and join totals (int64), the rows'
// prime columns and their parent rows, the columns' trees and the trees'
// path ends (int32), three lists of n entries (the new columns of two
// levels, the whole forest after a round), and its control words.
func ForestPlan(n int) cuda.Plan {
	k := uint64(n)
	return cuda.Plan{What: fmt.Sprintf("cuda/fast forest %dx%d", n, n), Buffers: []cuda.Buffer{
		{Name: "lap.forest.duals", Bytes: 8 * 3 * k},
		{Name: "lap.forest.vectors", Bytes: 4 * 4 * k},
		{Name: "lap.forest.lists", Bytes: forestEntryBytes * 3 * k},
		{Name: "lap.forest.ctl", Bytes: 8 * forestWords},
	}}
}

// forestBuffers are the forest's device buffers (ForestPlan).
type forestBuffers struct {
	Duals   driver.DevicePtr `buf:"lap.forest.duals"`
	Vectors driver.DevicePtr `buf:"lap.forest.vectors"`
	Lists   driver.DevicePtr `buf:"lap.forest.lists"`
	Ctl     driver.DevicePtr `buf:"lap.forest.ctl"`
}

// forestSlack16 lets the forest read 16-bit slacks where they fit
// (benchmarks compare it with the int32 slacks).
var forestSlack16 = true

// forestBlockLimit, when positive, caps the forest kernel's blocks below
// the multiprocessors (benchmarks compare shapes).
var forestBlockLimit int

// forestGoOn is the levels a round of the forest search goes on after its
// first paths while they add columns (the kernel's goOn; forestModel's
// too): two, from the H200 measurements in NOTES.md (rounds 40-45% fewer,
// the forest 5-8% faster at n = 4096 range n and at 8192, even from 1024
// to 2048; four and eight fewer rounds still but more levels).
var forestGoOn = 2

// forestThreadsOverride, when positive, sets the forest kernel's block
// size, 1024, 512 or 256 (benchmarks and tests compare them).
var forestThreadsOverride int

// forestThreads is the forest kernel's block size for an order-n instance
// whose costs span span, on sms multiprocessors (NOTES.md has the
// measurements): 256 threads at spans from 4n for orders 1024 to 4096
// (range 10n: 2-7% faster than 512, and 8% slower at order 8192); 512 at
// spans from n/2 up to order 4096 and from 4n at larger orders (faster
// than 1024 at ranges n and 10n up to 4096 and at 8192 range 10n, slower
// at range 0.1n, even at 8192 range n); 1024 otherwise, and wherever a
// block would own more rows than its threads (forestShape).
func forestThreads(n, sms int, span int64) int {
	if forestThreadsOverride > 0 {
		return forestThreadsOverride
	}
	fits := func(threads int) bool { _, _, err := forestShape(n, sms, threads); return err == nil }
	switch {
	case n >= 1024 && n <= 4096 && span >= 4*int64(n) && fits(256):
		return 256
	case 2*span >= int64(n) && (n <= 4096 || span >= 4*int64(n)) && fits(512):
		return 512
	}
	return 1024
}

// forestShape returns the rows each block of the forest kernel owns (a
// power of two from 32 to the block's threads, the fewest that spread n
// rows over at most sms blocks) and the blocks. The level's barrier counts
// its blocks in 12 bits and its columns and paths in 20 (levelBarrier in
// kernels/lap_forest.cu), so the order stays below 2^20 and the blocks
// below 2^12.
func forestShape(n, sms, threads int) (rowsPerBlock, blocks int, err error) {
	if n >= 1<<20 {
		return 0, 0, fmt.Errorf("forest search: order %d, at most %d", n, 1<<20-1)
	}
	per := max(32, (n+sms-1)/sms)
	r := 1 << bits.Len(uint(per-1))
	if r > threads {
		return 0, 0, fmt.Errorf("forest search: order %d needs %d rows per block on %d multiprocessors, at most %d", n, r, sms, threads)
	}
	blocks = (n + r - 1) / r
	if blocks >= 1<<12 {
		return 0, 0, fmt.Errorf("forest search: order %d needs %d blocks on %d multiprocessors, at most %d", n, blocks, sms, 1<<12-1)
	}
	return r, blocks, nil
}

// forestErr turns the kernel's error word into an error.
func forestErr(code int64) error {
	return kernelError("forest search: ", code, "no candidate row can reach the forest",
		"a round ran more than 4n+4 levels", "a path ran longer than n",
		"the search reached 2^24 levels, the most its level barrier counts")
}

// forest is the forest search (kernels/lap_forest.cu) in place of steps 3
// to 6: after step 2 it finds the rest of the assignment and adds its
// duals to u and v; its counts and error are read after the timed window
// (forestCounts).
func (r *paperRun) forest() error {
	n := r.l.n
	sms := r.dev.Props.SMs
	if forestBlockLimit > 0 {
		sms = min(sms, forestBlockLimit)
	}
	threads := forestThreads(n, sms, r.d.span)
	per, blocks, err := forestShape(n, sms, threads)
	if err != nil {
		return err
	}
	var b forestBuffers
	if err := r.dev.Allocate(r.t, ForestPlan(n), &b); err != nil {
		return err
	}
	slack, kernel := r.slack, "lap_forest"
	if r.slack16 != 0 {
		slack, kernel = r.slack16, "lap_forest16"
	}
	if threads != 1024 {
		kernel += fmt.Sprintf("_%d", threads)
	}
	search, err := r.dev.Function(r.t, forestModule, kernel)
	if err != nil {
		return err
	}
	// The repairs' staging: 1,024 entries (FOREST_REPAIR_PER).
	smem := 1024 * forestEntryBytes
	if err := r.t.FuncSetAttribute(search, driver.FuncMaxDynamicSharedSize, smem); err != nil {
		return fmt.Errorf("forest search: %w", err)
	}
	settle, err := r.dev.Function(r.t, forestModule, "lap_forest_settle")
	if err != nil {
		return err
	}
	du, dv, djoin := b.Duals, b.Duals.Add(int64(8*n)), b.Duals.Add(int64(16*n))
	vec := func(k int) driver.DevicePtr { return b.Vectors.Add(int64(4 * k * n)) }
	par, root, found := vec(0), vec(2), vec(3) // par: an int32 pair per row
	lists, full := b.Lists, b.Lists.Add(int64(2*forestEntryBytes*n))
	if err := r.st.mark(PhaseForest); err != nil {
		return err
	}
	if err := r.t.MemsetD32Async(b.Ctl, 0, 2*forestWords, r.s); err != nil {
		return err
	}
	if err := r.t.LaunchCooperative(search, driver.D1(blocks), driver.D1(threads), smem, r.s,
		n, per, slack, du, dv, r.rowOfStarAtCol, r.colOfStarAtRow, par, root, djoin, found, lists, full, b.Ctl, forestTimed, forestGoOn); err != nil {
		return fmt.Errorf("forest search: %w", err)
	}
	if err := r.launch("forest duals", settle, r.g1, r.b1, n, du, dv, r.u, r.v); err != nil {
		return err
	}
	r.forestCtl = b.Ctl
	return nil
}

// forestCounts reads the forest's counts into the run's PaperCounts once
// the stream is synchronised (after the timed window, so that the search
// costs the window no wait of the host), and its error word.
func (r *paperRun) forestCounts() error {
	ctl := make([]int64, forestWords)
	if err := driver.CopyFromDevice(r.t, ctl, r.forestCtl); err != nil {
		return err
	}
	r.cnt.ForestRounds, r.cnt.ForestLevels, r.cnt.ForestDuals = int(ctl[forestRounds]), int(ctl[forestLevels]), int(ctl[forestDuals])
	for k := range r.cnt.ForestSections {
		r.cnt.ForestSections[k] = time.Duration(ctl[forestTimes+k])
	}
	return forestErr(ctl[forestError])
}
