package main

import "github.com/semibench/semibench/bench"

// currentMachine is this computer as it goes into result files: the host
// and, when a driver answers, its GPUs and CUDA stack.
func currentMachine() bench.Machine {
	m := bench.HostMachine()
	info, gpus := probeCUDA()
	m.SetGPUs(info, gpus)
	return m
}

// probeCUDA is replaced once the CUDA backend is linked.
var probeCUDA = func() (*bench.CUDAInfo, []bench.GPU) {
	return &bench.CUDAInfo{Error: "this binary was built without the CUDA backend"}, nil
}
