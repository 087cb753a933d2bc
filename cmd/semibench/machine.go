package main

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/impls/cuda"
)

// currentMachine is this computer as it goes into result files: the host
// and, when a driver answers, its GPUs and CUDA stack.
func currentMachine() bench.Machine {
	m := bench.HostMachine()
	m.SetGPUs(cuda.Probe())
	return m
}
