package hungarian

import (
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/generators/lapcost"
)

// The work of a LAP cell is the problem's least: how many passes over the
// costs an algorithm makes (the augmentations of the Hungarian and of
// Jonker-Volgenant, the repeats of the O(n^4) algorithm's step 6, the
// auction's bidding rounds) depends on the costs, and no record counts
// them, so every implementation, the paper's O(n^4) one included, is
// declared one pass: each cost read once, in the solver's own width, and
// entering one reduced cost and its minimum (one (min,+) update). A GPU
// cell's copies are the costs up, in the width the implementation sends
// them, and the answer down: the column of each row and the two duals
// (lapAnswerBytes).

// lapAnswerBytes are the bytes of one rows x cols problem's answer a GPU
// solver downloads: the row of each column (int32, cols+1 with the
// unused slot 0) and the row and column duals (8 bytes each, rows+1 and
// cols+1), as cuda/hungarian-n3, cuda/fast and the batch solvers download
// them (cuda/paper's stars and duals are 20 bytes a row, within 40 bytes
// of it).
func lapAnswerBytes(rows, cols int) float64 { return 12*float64(cols+1) + 8*float64(rows+1) }

// lapWork is the least work of count rows x cols problems whose solver
// reads elem-byte costs and, on a GPU (gpu), receives link-byte costs.
func lapWork(count, rows, cols int, elem, link float64, gpu bool) bench.Work {
	k := float64(rows) * float64(cols)
	w := bench.Work{Updates: k, DRAMBytes: k * elem}
	if gpu {
		w.LinkBytes = k*link + lapAnswerBytes(rows, cols)
	}
	return w.Scale(float64(count))
}

// lapCostWidths are the bytes of a cost in impl's memory (elem) and on the
// host link (link) for integer costs in [0, rng): int64 on the CPU; int32
// on the GPU, where cuda/fast (its batch solver too) sends costs that fit
// 16 bits in 16 (widened on the device) and a published code its own
// 32-bit type.
func lapCostWidths(impl string, rng int64) (elem, link float64, gpu bool) {
	if !strings.HasPrefix(impl, "cuda/") && !strings.HasPrefix(impl, "peer/") {
		return 8, 0, false
	}
	if impl == "cuda/fast" && rng <= 1<<16 {
		return 4, 2, true
	}
	return 4, 4, true
}

// hungarianCellWork is the work of a cell of hungarian/table1 to table4,
// fig4 to fig6 and batch: count (1 outside batch) n x n problems of
// integer costs in [0, range).
func hungarianCellWork(rec *bench.Record) (bench.Work, bool) {
	n := experiments.IntOf(rec.Params, "n")
	rng, err := lapcost.Range(rec.Params.Get("range"), max(n, 1))
	if n <= 0 || err != nil {
		return bench.Work{}, false
	}
	count := 1
	if rec.Params.Get("count") != "" {
		if count = experiments.IntOf(rec.Params, "count"); count <= 0 {
			return bench.Work{}, false
		}
	}
	elem, link, gpu := lapCostWidths(rec.Impl, rng)
	return lapWork(count, n, n, elem, link, gpu), true
}

// batchFloatCellWork is the work of a cell of hungarian/batch-float:
// count rows x cols problems of float32 costs, which cuda/fast and the
// published code read and send as they are (4 bytes) and cpu/jv reads
// widened to float64.
func batchFloatCellWork(rec *bench.Record) (bench.Work, bool) {
	rows, cols, count := experiments.IntOf(rec.Params, "rows"), experiments.IntOf(rec.Params, "cols"), experiments.IntOf(rec.Params, "count")
	if rows <= 0 || cols <= 0 || count <= 0 {
		return bench.Work{}, false
	}
	if strings.HasPrefix(rec.Impl, "cuda/") || strings.HasPrefix(rec.Impl, "peer/") {
		return lapWork(count, rows, cols, 4, 4, true), true
	}
	return lapWork(count, rows, cols, 8, 0, false), true
}
