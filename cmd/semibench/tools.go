package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/generators/dag"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/internal/outfile"
	"github.com/semibench/semibench/problems/kleene"
	"github.com/semibench/semibench/problems/kleene/maxplus"
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
		usage:   "gen NAME [flags] (semibench gen NAME --help for each generator's flags)",
		run:     genCmd,
	})
	register(&command{
		name:    "solve",
		summary: "run one implementation on your own instance",
		usage:   "solve NAME [flags] (semibench solve NAME --help for each problem's flags)",
		run:     solveCmd,
	})
}

func infoCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("info", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the machine record as JSON only")
	if err := parseFlags(fs, commands["info"], args); err != nil {
		return err
	}
	m := currentMachine()
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return withOutput(ctx, outfile.Stdout, func(w *bufio.Writer) error {
		if *asJSON {
			fmt.Fprintln(w, string(data))
			return nil
		}
		b := bench.CurrentBuild()
		fmt.Fprintf(w, "semibench %s %s\n\nmachine (as written into result files):\n%s\n\nbackends:\n", b.Version, b.Commit, data)
		fmt.Fprintf(w, "  cpu   available (%d cores), kernel %s\n", m.Cores, cpuKernelText(m.CPUKernel, goExperiments()))
		fmt.Fprintf(w, "  cuda  %s\n", cudaText(m.CUDA, len(m.GPUs)))
		if m.CUDA != nil && m.CUDA.Error == "" {
			for _, g := range m.GPUs {
				fmt.Fprintf(w, "        GPU %d: %s, compute capability %s, %d SMs, %.1f GiB\n", g.Index, g.Name, g.ComputeCapability, g.SMs, float64(g.MemoryBytes)/(1<<30))
			}
		}
		return nil
	})
}

// generators are the inputs `semibench gen` writes, each with its flags;
// a problem's file adds its own in an init function.
var generators = map[string]func(ctx context.Context, args []string) error{
	"dag": genDAG,
}

// solvers are the problems `semibench solve` knows, each with its flags;
// a problem's file adds its own in an init function.
var solvers = map[string]func(ctx context.Context, args []string) error{
	"kleene": solveKleene,
}

// generatorHelp says what each generator writes, for `gen --help` and the
// generator's own --help; every entry of generators has one (tested).
var generatorHelp = map[string]string{
	"apsp": "a random digraph with negative arcs for solve apsp (Rote, paper 003), as Matrix Market:\n" +
		"\"i j w\" is the arc i -> j; no negative cycle (weights from a potential), or one planted with --negative-cycle",
	"dag": "the Kleene-star paper's (000) random weighted DAG for solve kleene, as Matrix Market:\n" +
		"\"i j w\" is [X]_ij = w, the arc j -> i",
	"domination": "A(D_m), the (min,+) matrix of the 2-domination paper (002), as Matrix Market",
	"lap":        "the Hungarian paper's (001) uniform integer costs for solve lap, as CSV (a row per line)",
	"tree": "the treefix paper's (004) star, caterpillar or random tree for solve treefix:\n" +
		"a line \"parent weight\" per vertex",
}

// solverHelp says what each problem computes and what its input means (the
// arc convention above all: kleene and apsp read "i j w" in opposite
// directions, each as its paper does), for `solve --help` and the
// problem's own --help; every entry of solvers has one (tested).
var solverHelp = map[string]string{
	"apsp": "D = A*, the algebraic path problem of Rote (paper 003), in a chosen semiring.\n" +
		"Input: Matrix Market; a line \"i j w\" is a_ij = w, the weight of the arc i -> j (Rote's convention,\n" +
		"the transpose of kleene's); absent entries are the semiring's zero (+inf in min-plus).\n" +
		"In min-plus d_ij is the shortest distance from i to j, -inf where a negative cycle lies on the way\n" +
		"(d_ii = -inf for i on a negative cycle). gen apsp writes such graphs.",
	"domination": "γ2(P_m □ C_n), the 2-domination number of the cylinder (paper 002); no input file:\n" +
		"--m and --n name the cylinder (gen domination writes the paper's matrix A(D_m)).",
	"kleene": "X* = e ⊕ X ⊕ X² ⊕ ... in (max,+) of a DAG, the Kleene-star paper (000).\n" +
		"Input: Matrix Market; a line \"i j w\" is [X]_ij = w, the weight of the arc j -> i (the paper's\n" +
		"convention: column j lists j's successors; the transpose of apsp's); absent entries are ε = -inf.\n" +
		"[X*]_ij is the heaviest path from j to i; a cycle is an error. gen dag writes the paper's DAGs.",
	"lap": "the linear assignment problem of the Hungarian paper (001).\n" +
		"Input: a cost matrix, CSV (a row per line) or Matrix Market array, r x c with r <= c: the cell in\n" +
		"row i, column j is the cost of assigning row i (a worker) to column j (a job). Output, as JSON:\n" +
		"every row's distinct column (0-based) of least total cost (most with --maximize). A cell inf forbids\n" +
		"that assignment (-inf with --maximize); with none possible the problem is infeasible. gen lap writes such costs.",
	"treefix": "+Rootfix and +Leaffix of the treefix paper (004).\n" +
		"Input: a line \"parent weight\" per vertex, vertices 0..n-1 in file order, parent -1 for the root\n" +
		"(# lines are comments). Output: a value per vertex, in vertex order: rootfix sums the weights on the\n" +
		"path from the root to v, leaffix the weights of v's subtree, both including v's. gen tree writes such trees.",
}

// listHelp writes the names of a registry with their descriptions, the
// continuation lines indented under the first.
func listHelp(w io.Writer, registry map[string]func(context.Context, []string) error, help map[string]string) {
	keys := make([]string, 0, len(registry))
	for k := range registry {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for i, line := range strings.Split(help[k], "\n") {
			name := ""
			if i == 0 {
				name = k
			}
			fmt.Fprintf(w, "  %-11s %s\n", name, line)
		}
	}
}

// names lists a registry's keys, sorted, for messages.
func names[V any](m map[string]V) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// subcommand runs the sub-command named by args[0] from registry, for the
// commands gen and solve.
func subcommand(ctx context.Context, cmd string, registry map[string]func(context.Context, []string) error, help map[string]string, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Printf("usage: semibench %s\n\n%s\n\n", commands[cmd].usage, commands[cmd].summary)
			listHelp(os.Stdout, registry, help)
			fmt.Printf("\nsemibench %s NAME --help shows each one's flags.\n", cmd)
			return nil
		}
		return usagef("%s needs a name: %s", cmd, names(registry))
	}
	run, ok := registry[args[0]]
	if !ok {
		return usagef("%s: unknown name %q (known: %s)", cmd, args[0], names(registry))
	}
	err := run(ctx, args[1:])
	if ue := (*usageError)(nil); errors.As(err, &ue) && ue.sub == "" {
		ue.sub = cmd + " " + args[0]
	}
	return err
}

func genCmd(ctx context.Context, args []string) error {
	return subcommand(ctx, "gen", generators, generatorHelp, args)
}

func solveCmd(ctx context.Context, args []string) error {
	return subcommand(ctx, "solve", solvers, solverHelp, args)
}

func genDAG(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("gen dag", flag.ContinueOnError)
	n := fs.Int("n", 0, "number of nodes")
	seed := fs.Uint64("seed", 1, "generator seed")
	intWeights := fs.Bool("int-weights", false, "small integer weights (exact float32 sums) instead of N(0,1)")
	out := fs.String("out", "", "output Matrix Market file (- for standard output)")
	if err := parseFlags(fs, &command{name: "gen dag", summary: generatorHelp["dag"], usage: "gen dag --n N [--seed S] [--int-weights] --out FILE.mtx"}, args); err != nil {
		return err
	}
	if *n < 1 || *n > dag.MaxN {
		return usagef("--n must be in 1..%d, got %d", dag.MaxN, *n)
	}
	if *out == "" {
		return usagef("--out FILE.mtx is required")
	}
	if need, avail := maxplus.Bytes(*n), bench.AvailableMemory(); avail > 0 && need > avail {
		return fmt.Errorf("--n %d: the dense matrix needs %d bytes, only %d available", *n, need, avail)
	}
	return withOutput(ctx, *out, func(w *bufio.Writer) error {
		x, err := dag.GenerateContext(ctx, *n, *seed, *intWeights)
		if err != nil {
			return err
		}
		return maxplus.WriteMatrixMarket(w, x)
	})
}

// maxThreads and maxGPUs are the largest --threads and --gpus accepted: far
// beyond any machine, but a goroutine or device count that cannot exhaust
// memory or overflow what is computed from it. maxReps bounds --reps and
// --warmup: every sample of a cell is kept in the result file, and a
// record must stay within bench.MaxRecordBytes.
const (
	maxThreads = 1 << 16
	maxGPUs    = 1 << 10
	maxReps    = 1000
)

// checkThreads refuses a --threads value outside 0..maxThreads.
func checkThreads(threads int) error {
	if threads < 0 || threads > maxThreads {
		return usagef("--threads must be in 0..%d (0: all cores), got %d", maxThreads, threads)
	}
	return nil
}

// problemCommand is the command whose usage a problem's flag errors print.
func problemCommand(problem, usage string) *command {
	summary := solverHelp[problem]
	if summary == "" {
		summary = commands["solve"].summary
	}
	return &command{name: "solve " + problem, summary: summary, usage: usage}
}

func solveKleene(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("solve kleene", flag.ContinueOnError)
	in := fs.String("in", "", "input Matrix Market file (a line \"i j w\" is the arc j -> i)")
	out := fs.String("out", "", "output Matrix Market file for X* (default standard output, also -)")
	impl := fs.String("impl", "cpu/fast", "implementation")
	threads := fs.Int("threads", 0, "CPU threads (0: all cores)")
	gpus := fs.Int("gpus", 1, "GPUs for implementations that split their work")
	if err := parseFlags(fs, problemCommand("kleene", "solve kleene --in FILE.mtx --out FILE.mtx [--impl NAME]"), args, "in"); err != nil {
		return err
	}
	im, err := impls.Kleene.Lookup(*impl)
	if err != nil {
		return usagef("--impl: unknown Kleene implementation %q (valid: %s)", *impl, strings.Join(impls.Kleene.Names(), ", "))
	}
	if err := needDevice(*impl); err != nil {
		return err
	}
	if err := checkThreads(*threads); err != nil {
		return err
	}
	if *gpus < 1 || *gpus > maxGPUs {
		return usagef("--gpus must be in 1..%d, got %d", maxGPUs, *gpus)
	}
	return withOutput(ctx, *out, func(bw *bufio.Writer) error {
		x, err := readInput(*in, maxplus.ReadMatrixMarket)
		if err != nil {
			return err
		}
		t0 := time.Now()
		w, err := interruptible(ctx, func() (*maxplus.Matrix, error) {
			return im.Run(ctx, x, kleene.Options{Threads: *threads, GPUs: *gpus}, nil)
		})
		if err == nil {
			err = kleene.CheckRange(ctx, x, w)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", *in, err)
		}
		fmt.Fprintf(os.Stderr, "semibench: %s solved n=%d (%d arcs) in %s\n", im.Name, x.N, x.Arcs(), time.Since(t0).Round(time.Microsecond))
		return maxplus.WriteMatrixMarket(bw, w)
	})
}

// readInput opens the named input file and hands it, buffered, to read
// with the path as its name for messages.
func readInput[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err // *PathError names the file
	}
	defer f.Close()
	return read(bufio.NewReaderSize(f, 1<<20), path)
}
