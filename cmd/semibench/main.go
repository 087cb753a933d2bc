// Command semibench reproduces the tables and figures of five papers on
// semiring and tropical algorithms on this machine's CPU and NVIDIA GPUs,
// prints them beside the papers' numbers, and compares machines from saved
// result files. Run "semibench help" for the commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"

	"github.com/semibench/semibench/cmd/semibench/internal/cli"
	"github.com/semibench/semibench/internal/outfile"
)

// command is one subcommand: its one-line summary, its usage line and its
// body. run returns a *usageError for bad usage (exit 2), any other error
// for failure (exit 1).
type command struct {
	name, summary, usage string
	run                  func(ctx context.Context, args []string) error
}

// usageError is bad usage: the message and the command's usage are printed,
// and the exit status is 2. sub, when set, is the sub-command at fault
// ("solve treefix"), whose --help the message points to.
type usageError struct{ msg, sub string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{msg: fmt.Sprintf(format, a...)} }

// exitError is a failure with its own exit status (not 1 or 2), for
// outcomes a calling script must tell apart: see exitCheckpointed.
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }
func (e exitError) Unwrap() error { return e.err }

// exitCheckpointed is the exit status of a run that stopped after writing
// its checkpoint (solve domination --time-limit): run it again to resume.
const exitCheckpointed = cli.ExitCheckpointed

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel()})))
	ctx, cancel := context.WithCancel(context.Background())
	handleSignals(cancel)
	stopProfile := startProfile()
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole command to the file named
// by SEMIBENCH_CPUPROFILE, when set (to profile a slow cell on the machine
// where it is slow: go tool pprof semibench FILE). It returns the function
// that ends the profile.
func startProfile() func() {
	name := os.Getenv("SEMIBENCH_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "semibench: SEMIBENCH_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// exitSignalled is the exit status after a second signal (128 + SIGINT, as
// a shell reports a process killed by Ctrl-C).
const exitSignalled = 130

// handleSignals cancels the commands' context on the first SIGINT or
// SIGTERM: every command then winds down within a second (a run writes the
// records, report and plots of what finished; an output file is left as it
// was). A second signal ends the process at once, after removing the named
// temporaries of the outputs in flight.
func handleSignals(cancel context.CancelFunc) {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sigs
		cancel()
		<-sigs
		outfile.RemoveTemps()
		os.Exit(exitSignalled)
	}()
}

func logLevel() slog.Level {
	if os.Getenv("SEMIBENCH_DEBUG") != "" {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// dispatch runs one command and returns the exit status.
func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	diag = stderr
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "semibench help: unknown command %q\n\n", args[1])
				mainUsage(stderr)
				return 2
			}
			fmt.Fprintf(stdout, "usage: semibench %s\n\n%s\n", c.usage, c.summary)
			return 0
		}
		mainUsage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if args[0] == "--version" || args[0] == "-version" {
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "semibench: unknown command %q\n\n", args[0])
		mainUsage(stderr)
		return 2
	}
	err := c.run(ctx, args[1:])
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		if ue.sub != "" {
			fmt.Fprintf(stderr, "semibench %s: %s\n(semibench %s --help for every flag)\n", ue.sub, ue.msg, ue.sub)
			return 2
		}
		fmt.Fprintf(stderr, "semibench %s: %s\nusage: semibench %s\n(semibench %s --help for every flag)\n", c.name, ue.msg, c.usage, c.name)
		return 2
	default:
		msg := err.Error()
		if errors.Is(err, context.Canceled) && !strings.Contains(msg, "interrupted") {
			msg = "interrupted (" + msg + ")"
		}
		fmt.Fprintf(stderr, "semibench %s: %s\n", c.name, msg)
		var ee exitError
		if errors.As(err, &ee) {
			return ee.code
		}
		return 1
	}
}

func mainUsage(w io.Writer) {
	fmt.Fprintln(w, "semibench reproduces five papers on semiring and tropical algorithms on CPUs and NVIDIA GPUs.")
	fmt.Fprintln(w, "\nusage: semibench COMMAND [arguments]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nsemibench COMMAND --help shows a command's flags.")
}

// parse parses flags that may appear before, between or after positional
// arguments ("run kleene/table2 --scale paper") and returns the positionals.
func parse(fs *flag.FlagSet, c *command, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printHelp(fs, c)
				return nil, flag.ErrHelp
			}
			return nil, usagef("%v", err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseFlags parses a command that takes flags and no positional
// arguments, and checks that every flag named in required was given a value.
func parseFlags(fs *flag.FlagSet, c *command, args []string, required ...string) error {
	pos, err := parse(fs, c, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %v", pos)
	}
	for _, name := range required {
		if f := fs.Lookup(name); f != nil && f.Value.String() == "" {
			return usagef("--%s is required (%s)", name, f.Usage)
		}
	}
	return nil
}

func printHelp(fs *flag.FlagSet, c *command) {
	fmt.Fprintf(os.Stdout, "usage: semibench %s\n\n%s\n", c.usage, c.summary)
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	if b.Len() > 0 {
		fmt.Fprintf(os.Stdout, "\nflags:\n%s", b.String())
	}
}
