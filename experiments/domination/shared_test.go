package domination

import (
	"context"
	"strings"
	"testing"

	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/domination"
)

// TestDomSharedVerify: powers shared by a run that left the exact check of
// their repetition to the reference (the GPU runs' NoRecheck) are
// re-checked once when the reference reads them.
func TestDomSharedVerify(t *testing.T) {
	im, err := impls.Domination.Lookup("cpu/sparse")
	if err != nil {
		t.Fatal(err)
	}
	need, _, err := domination.MemoryNeeded(7, im.Product)
	if err != nil {
		t.Fatal(err)
	}
	// Two powers in memory: A^n0 has left them at the repetition.
	an, err := domination.Analyze(context.Background(), 7, domination.Options{Impl: im, NoRecheck: true, MemoryLimit: need})
	if err != nil {
		t.Fatal(err)
	}
	if an.Verified != "" {
		t.Fatalf("the run checked its repetition (%q); the test needs one that did not", an.Verified)
	}
	d := &domShared{an: an}
	if err := d.verify(context.Background(), "cpu/sparse", experiments.Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(an.Verified, "recomputing") {
		t.Errorf("verified %q, want the re-check by recomputing", an.Verified)
	}
}
