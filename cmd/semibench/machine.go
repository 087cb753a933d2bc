package main

import (
	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	cpukleene "github.com/semibench/semibench/impls/cpu/kleene"
	"github.com/semibench/semibench/impls/cpu/minplus"
	"github.com/semibench/semibench/impls/cuda"
)

// currentMachine is this computer as it goes into result files: the host,
// the CPU kernels this binary runs on it and, when a driver answers, its
// GPUs and CUDA stack.
func currentMachine() bench.Machine {
	m := bench.HostMachine()
	m.CPUKernel = cpuKernel()
	m.SetGPUs(cuda.Probe())
	return m
}

// cpuKernel names the inner kernels of the CPU implementations in this
// binary on this CPU (bench.Machine.CPUKernel): the one name when
// impls/cpu/minplus and impls/cpu/kleene chose the same, else both.
func cpuKernel() string {
	mp, kl := minplus.Kernel(), cpukleene.KernelName()
	if mp == kl {
		return mp
	}
	return "minplus " + mp + ", kleene " + kl
}

// needDevice returns why a CUDA implementation cannot run on this machine
// (no driver, no device), or nil; a solve asks before it reads its input
// or plans its memory, so a machine without a GPU says so at once.
func needDevice(impl string) error {
	if err := experiments.Available(impl); err != nil {
		return err
	}
	return nil
}
