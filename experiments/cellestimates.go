package experiments

import (
	"fmt"
	"math"

	"github.com/semibench/semibench/bench"
)

// CellEstimateFloorMS is the least wall time of a cell whose estimate the
// report weighs: shorter cells cost the budget nothing worth pricing.
const CellEstimateFloorMS = 50

// CellEstimateAccuracy compares, for each measurement of a run whose wall
// is CellEstimateFloorMS or more, the planner's estimate of the whole
// cell (Record.EstimateWallMS, made before it ran) with the wall it took
// (setup, measurement and check): how many lie within 3x, and the worst
// factor with its cell. A topped-up record counts again, its estimate and
// wall both the sum of its measurements. n is 0 for files written before
// the estimate was recorded.
func CellEstimateAccuracy(recs []bench.Record) (within3, n int, worst float64, worstCell string) {
	worst = 1
	for i := range recs {
		r := &recs[i]
		if r.Wall == nil || r.EstimateWallMS <= 0 || r.Status != bench.StatusOK && r.Status != bench.StatusCheckFailed {
			continue
		}
		took := r.Wall.SetupMS + r.Wall.MeasureMS + r.Wall.CheckMS
		if took < CellEstimateFloorMS {
			continue
		}
		n++
		f := math.Max(r.EstimateWallMS/took, took/r.EstimateWallMS)
		if f <= 3 {
			within3++
		}
		if f > worst {
			worst = f
			worstCell = fmt.Sprintf("%s %s %s: estimated %s, took %s", r.Experiment, r.Impl, r.Params.String(), msText(r.EstimateWallMS), msText(took))
		}
	}
	return within3, n, worst, worstCell
}

// CellEstimateText states CellEstimateAccuracy for the report, or ""
// when the file has no cell estimates to compare.
func CellEstimateText(recs []bench.Record) string {
	in, n, worst, cell := CellEstimateAccuracy(recs)
	if n == 0 {
		return ""
	}
	s := fmt.Sprintf("Cells over %d ms within 3x of their estimate: %d of %d (%.0f%%), the estimate of the whole cell (setup, runs, check) made before it ran", CellEstimateFloorMS, in, n, 100*float64(in)/float64(n))
	if worst > 1 {
		s += fmt.Sprintf("; worst %.1fx (%s)", worst, cell)
	}
	return s + "."
}

// msText is a duration in milliseconds as the report words it.
func msText(ms float64) string {
	if ms >= 1000 {
		return fmt.Sprintf("%.1f s", ms/1000)
	}
	return fmt.Sprintf("%.0f ms", ms)
}
