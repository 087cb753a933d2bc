package cudalap

import "github.com/semibench/semibench/bench"

// Options are shared by every solver of this package.
type Options struct {
	// Device is the CUDA device ordinal (0 for the first).
	Device int
	// Rec, when not nil, receives the solver's phases (h2d, the paper's
	// steps or the solver's own, d2h) and the timed window: BeginTotal
	// once the costs are on the device, EndTotal once the solve is
	// synchronised, before the download.
	Rec *bench.Recorder
	// GlobalWorkspace makes the batch solver keep every problem's
	// workspace in global memory even where it fits shared memory (the
	// kernel that wide problems use), to test and time both kernels.
	GlobalWorkspace bool
}
