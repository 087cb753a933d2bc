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

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/cmd/semibench/internal/cli"
	"github.com/semibench/semibench/internal/outfile"
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

// maxThreads and maxGPUs are the largest --threads and --gpus accepted
// (cli.MaxThreads, cli.MaxGPUs). maxReps bounds --reps and --warmup: every
// sample of a cell is kept in the result file, and a record must stay
// within bench.MaxRecordBytes.
const (
	maxThreads = cli.MaxThreads
	maxGPUs    = cli.MaxGPUs
	maxReps    = 1000
)

// checkThreads refuses a --threads value outside 0..maxThreads.
func checkThreads(threads int) error { return fromCLI(cli.CheckThreads(threads)) }
