package widestgraph

import "testing"

// TestPinned pins one output's digest: a change to the draw changes every
// input of the example, so it must show here.
func TestPinned(t *testing.T) {
	g, err := Generate(64, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.Hash(), "xxh64c:d03c6b43989a46cc"; got != want {
		t.Errorf("Generate(64, 1) digest %s, want %s", got, want)
	}
	if m := g.Arcs(); m < 64*2 || m > 64*6 {
		t.Errorf("%d arcs on 64 nodes, want about 4 a node", m)
	}
	h, _ := Generate(64, 2)
	if h.Hash() == g.Hash() {
		t.Error("seeds 1 and 2 give the same graph")
	}
	if _, err := Generate(0, 1); err == nil {
		t.Error("n = 0 accepted")
	}
}
