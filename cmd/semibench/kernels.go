package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/semibench/semibench/impls/cuda"
	"github.com/semibench/semibench/kernels"
)

func init() {
	register(&command{
		name:    "kernels",
		summary: "kernel sources: 'kernels export' regenerates the fallback PTX with NVRTC (make ptx)",
		usage:   "kernels export [--dir kernels/ptx]",
		run:     kernelsCmd,
	})
}

func kernelsCmd(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("kernels", flag.ContinueOnError)
	dir := fs.String("dir", "kernels/ptx", "folder for the stamped fallback PTX")
	pos, err := parse(fs, commands["kernels"], args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "export" {
		return usagef("kernels needs a subcommand: export")
	}
	if err := cuda.ExportPTX(*dir); err != nil {
		return err
	}
	for _, s := range kernels.Sources() {
		fmt.Printf("%s/%s.ptx\n", *dir, s.Name)
	}
	return nil
}
