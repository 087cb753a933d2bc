package widest

import (
	"context"
	"testing"

	"github.com/semibench/semibench/example/generators/widestgraph"
	"github.com/semibench/semibench/example/problems/widest"
)

// TestAgainstReference holds every implementation to the reference on
// random graphs and on the edge cases: one node, no arc, a path.
func TestAgainstReference(t *testing.T) {
	var graphs []*widest.Graph
	for _, n := range []int{2, 3, 17, 40} {
		g, err := widestgraph.Generate(n, uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, g)
	}
	path := &widest.Graph{N: 5, C: make([]int32, 25)}
	for i := range 4 {
		path.C[i*5+i+1] = int32(9 - i)
	}
	graphs = append(graphs, &widest.Graph{N: 1, C: []int32{0}}, &widest.Graph{N: 4, C: make([]int32, 16)}, path)
	for _, im := range Impls() {
		for _, g := range graphs {
			got, err := im.Solve(context.Background(), g, nil)
			if err != nil {
				t.Fatalf("%s n=%d: %v", im.Name, g.N, err)
			}
			if c := widest.Verify(got, widest.Reference(g)); !c.OK {
				t.Errorf("%s n=%d: %s", im.Name, g.N, c.Detail)
			}
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, _ := widestgraph.Generate(8, 1)
	for _, im := range Impls() {
		if _, err := im.Solve(ctx, g, nil); err == nil {
			t.Errorf("%s: no error on a cancelled context", im.Name)
		}
	}
}
