package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/impls/cpu/kleene"
	"github.com/semibench/semibench/maxplus"
)

func init() {
	register(&command{
		name:    "info",
		summary: "this machine exactly as it goes into result files, and which backends are available",
		usage:   "info [--json]",
		run:     infoCmd,
	})
	register(&command{
		name:    "gen",
		summary: "generate a paper's input deterministically from a seed",
		usage:   "gen dag --n N [--seed S] [--int-weights] --out FILE.mtx",
		run:     genCmd,
	})
	register(&command{
		name:    "solve",
		summary: "run one implementation on your own instance",
		usage:   "solve kleene --in FILE.mtx --out FILE.mtx [--impl NAME] [--threads N] [--gpus N]",
		run:     solveCmd,
	})
}

func infoCmd(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the machine record as JSON only")
	pos, err := parse(fs, commands["info"], args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("info takes no arguments")
	}
	m := currentMachine()
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if *asJSON {
		fmt.Println(string(data))
		return nil
	}
	b := bench.CurrentBuild()
	fmt.Printf("semibench %s %s\n\nmachine (as written into result files):\n%s\n\nbackends:\n", b.Version, b.Commit, data)
	fmt.Printf("  cpu   available (%d cores)\n", m.Cores)
	switch {
	case m.CUDA == nil || m.CUDA.Error != "":
		reason := "no CUDA driver"
		if m.CUDA != nil {
			reason = m.CUDA.Error
		}
		fmt.Printf("  cuda  unavailable: %s\n", reason)
	default:
		nvrtc := m.CUDA.NVRTC
		if nvrtc == "" {
			nvrtc = "not found"
		}
		fmt.Printf("  cuda  available: driver %s, %d GPU(s), NVRTC %s, kernel path %s\n", m.CUDA.Driver, len(m.GPUs), nvrtc, m.CUDA.KernelPath)
		for _, g := range m.GPUs {
			fmt.Printf("        GPU %d: %s, compute capability %s, %d SMs, %.1f GiB\n", g.Index, g.Name, g.ComputeCapability, g.SMs, float64(g.MemoryBytes)/(1<<30))
		}
	}
	return nil
}

func genCmd(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	n := fs.Int("n", 0, "number of nodes")
	seed := fs.Uint64("seed", 1, "generator seed")
	intWeights := fs.Bool("int-weights", false, "small integer weights (exact float32 sums) instead of N(0,1)")
	out := fs.String("out", "", "output Matrix Market file")
	pos, err := parse(fs, commands["gen"], args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "dag" {
		return usagef("gen needs a generator name: dag")
	}
	if *n < 1 {
		return usagef("--n must be at least 1, got %d", *n)
	}
	if *out == "" {
		return usagef("--out FILE.mtx is required")
	}
	if need, avail := maxplus.Bytes(*n), bench.AvailableMemory(); avail > 0 && need > avail {
		return fmt.Errorf("--n %d: the dense matrix needs %d bytes, only %d available", *n, need, avail)
	}
	x, err := dag.Generate(*n, *seed, *intWeights)
	if err != nil {
		return err
	}
	return writeMatrix(*out, x)
}

func writeMatrix(path string, m *maxplus.Matrix) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := maxplus.WriteMatrixMarket(w, m); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

func solveCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	in := fs.String("in", "", "input Matrix Market file (a line \"i j w\" is the arc j -> i)")
	out := fs.String("out", "", "output Matrix Market file for X* (default standard output)")
	impl := fs.String("impl", "cpu/fast", "implementation")
	threads := fs.Int("threads", 0, "CPU threads (0: all cores)")
	gpus := fs.Int("gpus", 1, "GPUs for implementations that split their work")
	pos, err := parse(fs, commands["solve"], args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "kleene" {
		return usagef("solve needs a problem name: kleene")
	}
	if *in == "" {
		return usagef("--in FILE.mtx is required")
	}
	im, err := experiments.KleeneImpl(*impl)
	if err != nil {
		return usagef("--impl: %v", err)
	}
	f, err := os.Open(*in)
	if err != nil {
		return err
	}
	x, err := maxplus.ReadMatrixMarket(bufio.NewReaderSize(f, 1<<20), *in)
	f.Close()
	if err != nil {
		return err
	}
	t0 := time.Now()
	w, err := im.Run(ctx, x, kleene.Options{Threads: *threads, GPUs: *gpus}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", *in, err)
	}
	fmt.Fprintf(os.Stderr, "semibench: %s solved n=%d (%d arcs) in %s\n", im.Name, x.N, x.Arcs(), time.Since(t0).Round(time.Microsecond))
	if *out == "" {
		bw := bufio.NewWriter(os.Stdout)
		if err := maxplus.WriteMatrixMarket(bw, w); err != nil {
			return err
		}
		return bw.Flush()
	}
	return writeMatrix(*out, w)
}
