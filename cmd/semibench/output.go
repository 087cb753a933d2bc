package main

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/outfile"
)

// Every command that writes a file writes it through internal/outfile:
// beside the target, renamed into place only when the command succeeded,
// symlinks written through, anything but a regular file refused unless the
// user asked for standard output ("-").

// Every command that writes a file refuses to replace a result file
// (refuseResultFile), and one that reads a file refuses an output that is
// that file (refuseInput): the measurements would be gone.

// writeOutput writes the file at path with write (see outfile.Write): the
// generators' output, and any file written once its contents are known.
func writeOutput(ctx context.Context, path string, write func(w *bufio.Writer) error) error {
	if err := refuseResultFile(path); err != nil {
		return err
	}
	return outfile.Write(ctx, path, write)
}

// refuseResultFile refuses, as bad usage, an output path that holds a
// result file (bench.IsResultFile): a result file is only appended to,
// and writing over it would lose its measurements.
func refuseResultFile(path string) error {
	if path == "" || path == outfile.Stdout || !bench.IsResultFile(path) {
		return nil
	}
	return usagef("%s holds a semibench result file, which this command would replace, and its measurements would be lost: name another output (a result file is only appended to, by run --out and peers record --out)", path)
}

// refuseInput refuses, as bad usage, an output path that is one of the
// files the command reads (the same file, through a link or not).
func refuseInput(flagName, path string, inputs ...string) error {
	if path == "" || path == outfile.Stdout {
		return nil
	}
	out, err := os.Stat(path)
	if err != nil {
		return nil // not there yet: no input
	}
	for _, in := range inputs {
		if st, err := os.Stat(in); err == nil && os.SameFile(out, st) {
			return usagef("%s %s is the input %s: writing it would replace what the command reads; name another output", flagName, path, in)
		}
	}
	return nil
}

// withOutput opens the output named path (standard output when path is ""
// or "-") before work starts, so that a path that cannot be written (or
// holds a result file) is refused before any input is read; work writes into it, and the output is
// put in place only when work succeeds. work's own errors are returned as
// they are (they name the input); a failed write names the output.
func withOutput(ctx context.Context, path string, work func(w *bufio.Writer) error) error {
	if err := refuseResultFile(path); err != nil {
		return err
	}
	f, err := outfile.Create(ctx, cmp.Or(path, outfile.Stdout))
	if err != nil {
		return err
	}
	if err := work(f.Writer); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// interruptible runs work and returns its result, or ctx's error as soon as
// ctx is done: a solver that does not watch the context is left running
// while the command returns, and the process exits with it.
func interruptible[T any](ctx context.Context, work func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := work()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, fmt.Errorf("interrupted (%w)", ctx.Err())
	}
}

// scratchDir is the folder of the outputs that are not the repository's:
// `run`'s result files and `plot`'s figures, under the system's temporary
// folder ($TMPDIR), laid out as results/ is (<machine-label>/<run>).
func scratchDir() string { return filepath.Join(os.TempDir(), "semibench") }

// runBase is a result file's path without its extension (.jsonl, and .gz
// for a gzipped one): the name its report (.md) and plots (.plots/) take.
func runBase(path string) string {
	path = strings.TrimSuffix(path, ".gz")
	return strings.TrimSuffix(path, filepath.Ext(path))
}

// renderPlots draws the figures of f into dir: first into a staging folder
// (the plotting library writes files by name), then each put in place
// through outfile, so an interrupted or failed command leaves the plots
// that were there. It returns the paths written.
func renderPlots(ctx context.Context, f *bench.File, dir string) ([]string, error) {
	stage, err := outfile.NewStage()
	if err != nil {
		return nil, fmt.Errorf("plots: %w", err)
	}
	defer stage.Close()
	drawn, drawErr := experiments.RenderPlots(f, stage.Dir)
	if len(drawn) > 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("plots: %w", err)
		}
	}
	for _, p := range drawn {
		if err := refuseResultFile(filepath.Join(dir, filepath.Base(p))); err != nil {
			return nil, err // before any plot is written
		}
	}
	var written []string
	for _, p := range drawn {
		data, err := os.ReadFile(p)
		if err != nil {
			return written, fmt.Errorf("plots: %w", err)
		}
		dst := filepath.Join(dir, filepath.Base(p))
		if err := writeOutput(ctx, dst, func(w *bufio.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return written, err
		}
		written = append(written, dst)
	}
	if drawErr != nil {
		// the message names the staging folder: name the plots' folder
		return written, fmt.Errorf("plots in %s: %w", dir, drawErr)
	}
	return written, nil
}
