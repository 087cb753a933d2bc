package lap

import (
	"context"
	"fmt"
	"testing"

	"github.com/semibench/semibench/problems/lap"

	"github.com/semibench/semibench/generators/lapcost"
)

// BenchmarkSolve times every implementation on the paper's costs at
// n = 512 for the three ranges (go test -bench Solve ./impls/cpu/lap).
func BenchmarkSolve(b *testing.B) {
	const n = 512
	for _, r := range lapcost.PaperRanges {
		c, err := lapcost.Square(n, r, 1)
		if err != nil {
			b.Fatal(err)
		}
		m := &lap.Matrix{Rows: n, Cols: n, C: c}
		for _, im := range Impls() {
			b.Run(fmt.Sprintf("%s/n=%d/range=%s", im.Name, n, r), func(b *testing.B) {
				for b.Loop() {
					if _, err := im.Solve(context.Background(), m, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
