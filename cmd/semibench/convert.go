package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/semibench/semibench/bench"
)

func init() {
	register(&command{
		name:    "convert",
		summary: "write the schema-3 twin (JSON Lines, same name ending .jsonl) of each result file of schema 1 or 2, beside it",
		usage:   "convert FILE...",
		run:     convertCmd,
	})
}

// convertCmd converts each file named; it goes on after a file that fails
// and reports every failure.
func convertCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	paths, err := parse(fs, commands["convert"], args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usagef("name at least one result file to convert")
	}
	for _, p := range paths {
		if twinPath(p) == p {
			return usagef("%s already ends in .jsonl: name the schema-1 or 2 file to convert", p)
		}
	}
	var errs []error
	for _, p := range paths {
		out, err := convertFile(ctx, p)
		if ctx.Err() != nil {
			return err // interrupted: the files not yet converted are left
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(os.Stderr, "semibench convert: %s -> %s\n", p, out)
	}
	return errors.Join(errs...)
}

// twinPath is the schema-3 name of the result file at path: its extension
// replaced by .jsonl.
func twinPath(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path)) + ".jsonl"
}

// convertFile writes the schema-3 twin of the result file at path, never
// over an existing file, reads it back and checks that it holds the same
// header and records; it returns the twin's path.
func convertFile(ctx context.Context, path string) (string, error) {
	out := twinPath(path)
	f, err := bench.ReadFileContext(ctx, path)
	if err != nil {
		return "", err
	}
	if _, err := os.Lstat(out); err == nil {
		return "", fmt.Errorf("%s: its twin %s exists already, and convert never replaces a file: remove or move it first", path, out)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s: %w", out, err)
	}
	if err := bench.WriteFileContext(ctx, out, f); err != nil {
		return "", err
	}
	back, err := bench.ReadFile(out)
	if err == nil {
		err = sameFile(f, back)
	}
	if err != nil {
		os.Remove(out)
		return "", fmt.Errorf("%s: its conversion %s does not read back the same (removed): %w", path, out, err)
	}
	return out, nil
}

// sameFile reports the first difference between a file and its
// conversion: the header's fields (the schema aside) and every record, as
// JSON.
func sameFile(a, b *bench.File) error {
	ha, hb := *a, *b
	ha.Records, hb.Records = nil, nil
	ha.Schema, hb.Schema = 0, 0
	ha.Protocol, hb.Protocol = a.TimingProtocol(), b.TimingProtocol()
	if err := sameJSON("the header", &ha, &hb); err != nil {
		return err
	}
	if len(a.Records) != len(b.Records) {
		return fmt.Errorf("%d records, and %d converted", len(a.Records), len(b.Records))
	}
	for i := range a.Records {
		if err := sameJSON(fmt.Sprintf("record %d", i), &a.Records[i], &b.Records[i]); err != nil {
			return err
		}
	}
	return nil
}

// sameJSON reports whether a and b render as the same JSON.
func sameJSON(what string, a, b any) error {
	ja, err := json.Marshal(a)
	if err != nil {
		return err
	}
	jb, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if !bytes.Equal(ja, jb) {
		return fmt.Errorf("%s differs: %s, converted %s", what, ja, jb)
	}
	return nil
}
