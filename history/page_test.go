package history

import (
	"bytes"
	"strings"
	"testing"
)

// timelineOf is a timeline of a cell with one run at each of commits.
func timelineOf(params string, commits int) *Timeline {
	t := &Timeline{Experiment: "toy/exp", Impl: "cpu/fast", Params: params, Phase: "total"}
	for i := range commits {
		t.Groups = append(t.Groups, Group{Commit: strings.Repeat(string(rune('a'+i)), 40), Order: i, Points: []Point{{Run: &Run{Header: nil}, Value: 1}}})
	}
	return t
}

// TestBetterHeadline: of a headline implementation's cells, the largest
// measured at three commits or more, else the one measured at the most.
func TestBetterHeadline(t *testing.T) {
	small, large, rare := timelineOf("n=64", 9), timelineOf("n=8192", 3), timelineOf("n=16384", 2)
	if !betterHeadline(large, small) || betterHeadline(small, large) {
		t.Error("the largest cell at 3 commits does not beat a smaller one at 9")
	}
	if !betterHeadline(large, rare) || betterHeadline(rare, large) {
		t.Error("a larger cell at 2 commits beats one at 3")
	}
	if !betterHeadline(timelineOf("n=1", 2), timelineOf("n=2", 1)) {
		t.Error("below 3 commits, the cell at more commits does not win")
	}
}

// TestPageWrite: the page names each machine, its steps and its tables.
func TestPageWrite(t *testing.T) {
	tl := timelineOf("n=8", 4)
	tl.Kind = Kind{Label: "box", CPU: "cpu", Cores: 2}
	tl.Steps = []TimelineStep{{Step: Step{Index: 2, Before: 10, After: 7, Ratio: 0.7, Lo: 0.65, Hi: 0.75}, Before: tl.Groups[1].Commit, After: tl.Groups[2].Commit}}
	p := &Page{Machines: []PageMachine{{Label: "2-core", Kind: tl.Kind}}, Timelines: [][]*Timeline{{tl}}, Claims: [][]*ClaimHistory{nil},
		Plots: [][]string{{"HISTORY.plots/toy_box.png"}}, Head: strings.Repeat("f", 40), Runs: 4}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	for _, want := range []string{"## 2-core: box (cpu, 2 cores, no GPU)", "1 headline cells, 1 steps found", "toy/exp cpu/fast n=8: bbbbbbb → ccccccc: 10.0 → 7.0 ms, 0.700x",
		"![toy_box](HISTORY.plots/toy_box.png)", "at commit fffffff from 4 runs"} {
		if !strings.Contains(doc, want) {
			t.Errorf("the page lacks %q:\n%s", want, doc)
		}
	}
}
