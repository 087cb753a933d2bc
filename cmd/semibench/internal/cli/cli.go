// Package cli holds the descriptors of `semibench solve` and `semibench
// gen`: each problem declares here, once, its flags, how its input is read,
// which implementation of its registry solves it, how the answer is checked
// and written, and its generators. cmd/semibench registers one sub-command
// per descriptor and gives them all one output convention:
//
//	solve: the answer on standard output or --out FILE, and on standard error
//	       "<problem> <impl>: <size>, <time> ms, check: <ok|what failed>"
//	gen:   the file on --out (or standard output, -), and on standard error
//	       "wrote FILE (N bytes): <what>"
//
// The descriptors live here rather than in problems/<p> because they reach
// the implementation registries of package impls, which a problem package
// never imports; the checks themselves are the problems' own.
package cli

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// UsageError is bad usage of a sub-command (a flag missing, out of range,
// or at odds with another): cmd/semibench prints it with the usage line and
// exits 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError with the formatted message.
func Usagef(format string, a ...any) error { return &UsageError{Msg: fmt.Sprintf(format, a...)} }

// ExitError is a failure with its own exit status (not 1 or 2), for an
// outcome a calling script must tell apart from a failure.
type ExitError struct {
	Code int
	Err  error
}

func (e ExitError) Error() string { return e.Err.Error() }
func (e ExitError) Unwrap() error { return e.Err }

// ExitCheckpointed is the exit status of a solve that stopped after
// writing its checkpoint (solve domination --time-limit): run it again to
// resume.
const ExitCheckpointed = 3

// Common holds the flags every solve has, filled in by the caller's
// parsing: --in (when the problem reads a file), --impl and --out.
type Common struct {
	In, Impl, Out string
}

// Solver describes `semibench solve NAME`.
type Solver struct {
	Name    string // the problem, as typed after solve: "lap"
	Summary string // what it computes and what its input means, for --help
	Usage   string // the usage line, without "semibench "
	// In is the help of --in; "" when the problem reads no input file.
	In string
	// Out is the help of --out (the answer's format).
	Out string
	// Impls lists the names --impl takes, in display order; ImplLabel
	// names the problem in the refusal of another ("unknown LAP
	// implementation"); ImplNote is added to --impl's help.
	Impls       func() []string
	ImplLabel   string
	ImplNote    string
	DefaultImpl string
	// Required names the flags that must be given a value.
	Required []string
	// Flags declares the problem's own flags on fs and returns the
	// function that, once fs is parsed (and c filled in, its --impl one of
	// Impls), checks them and returns the plan. Its errors are
	// *UsageError; no input is read before the plan runs.
	Flags func(fs *flag.FlagSet, c *Common) func() (*Plan, error)
}

// Plan is a checked solve command line.
type Plan struct {
	// Impl is the implementation that runs: a CUDA one is refused before
	// any input is read on a machine without a GPU.
	Impl string
	// Run reads the input, solves it with Impl and checks the answer.
	Run func(ctx context.Context) (*Answer, error)
}

// Answer is what one solve found.
type Answer struct {
	Size  string        // the instance in a few words: "n=5, 12 arcs"
	Time  time.Duration // the implementation's solve alone: reading, checking and writing excluded
	Check error         // nil: the answer passed its check
	// Write writes the answer (only when it passed its check).
	Write func(w *bufio.Writer) error
}

// Summary is the line a solve writes on standard error.
func (a *Answer) Summary(problem, impl string) string {
	check := "ok"
	if a.Check != nil {
		check = a.Check.Error()
	}
	return fmt.Sprintf("%s %s: %s, %s ms, check: %s", problem, impl, a.Size, Millis(a.Time), check)
}

// Millis writes d in milliseconds with three decimals.
func Millis(d time.Duration) string {
	return fmt.Sprintf("%.3f", float64(d.Nanoseconds())/1e6)
}

// Timed runs solve and returns its result with its wall time.
func Timed[T any](solve func() (T, error)) (T, time.Duration, error) {
	t0 := time.Now()
	v, err := solve()
	return v, time.Since(t0), err
}

// Generator describes `semibench gen NAME`.
type Generator struct {
	Name    string // as typed after gen: "lap"
	Summary string // what it writes, for --help
	Usage   string // the usage line, without "semibench "
	Out     string // the help of --out
	// Required names the flags that must be given a value.
	Required []string
	// Flags declares the generator's own flags on fs and returns the
	// function that, once fs is parsed (out holding --out), checks them
	// (errors: *UsageError) and returns what to write.
	Flags func(fs *flag.FlagSet, out *string) func() (*Output, error)
}

// Output is what one gen writes.
type Output struct {
	What  string // what the file holds, for the line on standard error
	Write func(ctx context.Context, w *bufio.Writer) error
}

// FlagGiven reports whether the flag name was given on the command line.
func FlagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// MaxThreads and MaxGPUs are the largest --threads and --gpus accepted: far
// beyond any machine, but a goroutine or device count that cannot exhaust
// memory or overflow what is computed from it.
const (
	MaxThreads = 1 << 16
	MaxGPUs    = 1 << 10
)

// CheckThreads refuses a --threads value outside 0..MaxThreads.
func CheckThreads(threads int) error {
	if threads < 0 || threads > MaxThreads {
		return Usagef("--threads must be in 0..%d (0: all cores), got %d", MaxThreads, threads)
	}
	return nil
}

// CheckGPUs refuses a --gpus value outside 1..MaxGPUs.
func CheckGPUs(gpus int) error {
	if gpus < 1 || gpus > MaxGPUs {
		return Usagef("--gpus must be in 1..%d, got %d", MaxGPUs, gpus)
	}
	return nil
}

var (
	solvers    []*Solver
	generators []*Generator
)

// Solvers returns every problem's solve descriptor, sorted by name.
func Solvers() []*Solver { return solvers }

// Generators returns every gen descriptor, sorted by name.
func Generators() []*Generator { return generators }

// addSolver and addGenerator keep the lists sorted by name; a repeated
// name panics at start-up.
func addSolver(s *Solver) {
	solvers = insertSorted(solvers, s, func(x *Solver) string { return x.Name })
}

func addGenerator(g *Generator) {
	generators = insertSorted(generators, g, func(x *Generator) string { return x.Name })
}

func insertSorted[T any](list []T, v T, name func(T) string) []T {
	i, found := slices.BinarySearchFunc(list, name(v), func(x T, n string) int { return strings.Compare(name(x), n) })
	if found {
		panic("cli: " + name(v) + " declared twice")
	}
	return slices.Insert(list, i, v)
}

// ReadFile opens the input file at path and hands it, buffered, to read
// with the path as its name for messages.
func ReadFile[T any](path string, read func(io.Reader, string) (T, error)) (T, error) {
	f, err := os.Open(path)
	if err != nil {
		var zero T
		return zero, err // *PathError names the file
	}
	defer f.Close()
	return read(bufio.NewReaderSize(f, 1<<20), path)
}
