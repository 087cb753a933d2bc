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

// writeOutput writes the file at path with write (see outfile.Write): the
// generators' output, and any file written once its contents are known.
func writeOutput(ctx context.Context, path string, write func(w *bufio.Writer) error) error {
	return outfile.Write(ctx, path, write)
}

// withOutput opens the output named path (standard output when path is ""
// or "-") before work starts, so that a path that cannot be written is
// refused before any input is read; work writes into it, and the output is
// put in place only when work succeeds. work's own errors are returned as
// they are (they name the input); a failed write names the output.
func withOutput(ctx context.Context, path string, work func(w *bufio.Writer) error) error {
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
