package cuda

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/kernels"
)

// LoadKernels opens the device of the given ordinal and loads every kernel
// module (kernels.Sources) on it, compiling with NVRTC those the disk
// cache lacks (or JIT-compiling the fallback PTX), so that no later run of
// an implementation loads one. Without it the first cell of each module in
// a process times its load, and on a fresh machine its compile: the H200's
// first reproduce of 9b86b0f on a fresh lease spent 0.8-4.8 s in the first
// cell of each module, its second on the same lease (the kernels in the
// disk cache) 7-200 ms. It returns what it did in a sentence for the
// run's notes; a module that does not load is named in the error, and the
// cells that need it report it as before.
func LoadKernels(ctx context.Context, ordinal int) (string, error) {
	t0 := time.Now()
	d, err := Open(ordinal)
	if err != nil {
		return "", err
	}
	var compiled, cached, jit []string
	var errs []error
	err = d.Run(ctx, func(t *driver.Thread) error {
		for _, src := range kernels.Sources() {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			m, err := d.Module(t, src.Name)
			switch {
			case err != nil:
				errs = append(errs, err)
			case m.Path != PathNVRTC:
				jit = append(jit, src.Name)
			case m.Cached:
				cached = append(cached, src.Name)
			default:
				compiled = append(compiled, src.Name)
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	var parts []string
	for _, p := range []struct {
		how   string
		names []string
	}{{"compiled by NVRTC", compiled}, {"from the disk cache", cached}, {"the fallback PTX, JIT-compiled by the driver", jit}} {
		if len(p.names) > 0 {
			parts = append(parts, fmt.Sprintf("%s %s", strings.Join(p.names, ", "), p.how))
		}
	}
	note := fmt.Sprintf("kernels: %d module(s) loaded on GPU %d before the first cell, in %s (%s), so that no cell times a module's load or compile",
		len(compiled)+len(cached)+len(jit), ordinal, time.Since(t0).Round(time.Millisecond), strings.Join(parts, "; "))
	return note, errors.Join(errs...)
}
