package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
)

func init() {
	register(&command{
		name:    "claims",
		summary: "the verdict on every claim of the five papers from one or several result files (a GPU machine's and a CPU machine's together decide more)",
		usage:   "claims FILE... [--format text|markdown|json]",
		run:     claimsCmd,
	})
}

// claimRow is one claim as `claims --format json` writes it.
type claimRow struct {
	ID          string `json:"id"`
	Paper       string `json:"paper"`
	Where       string `json:"where"`
	Claim       string `json:"claim"`
	Rule        string `json:"rule"`
	PaperFigure string `json:"paper_figure"`
	Ours        string `json:"ours"`
	Verdict     string `json:"verdict"`
	Scored      bool   `json:"scored"`
	Reason      string `json:"reason,omitempty"`
	Rerun       string `json:"rerun,omitempty"`
}

func claimsCmd(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("claims", flag.ContinueOnError)
	format := fs.String("format", report.FormatText, "text, markdown or json")
	paths, err := parse(fs, commands["claims"], args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usagef("name at least one result file")
	}
	if !slices.Contains([]string{report.FormatText, report.FormatMarkdown, "json"}, *format) {
		return usagef("--format: unknown format %q (valid: text, markdown, json)", *format)
	}
	files, err := readFiles(paths)
	if err != nil {
		return err
	}
	recs, scale, schema, err := combine(files, paths)
	if err != nil {
		return err
	}
	claims := experiments.Judge(recs, scale, schema)
	if *format == "json" {
		rows := make([]claimRow, 0, len(claims))
		for _, c := range claims {
			rows = append(rows, claimRow{c.ID, c.Paper, c.Where, c.Short(), c.Text, c.PaperFigure, c.Ours, string(c.Verdict), c.Verdict.Scored(), c.Reason, c.Rerun})
		}
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	roll := experiments.RollUp(claims)
	roll.Title = fmt.Sprintf("claims of the five papers from %s (%s scale)", strings.Join(paths, ", "), scale)
	t := report.Table{Header: []string{"paper", "where", "claim", "paper's figure", "ours", "verdict", "why / re-run"}}
	for _, c := range claims {
		why := c.Reason
		if c.Rerun != "" {
			why = strings.TrimPrefix(why+"; re-run: "+c.Rerun, "; ")
		}
		t.Rows = append(t.Rows, []string{c.Paper, c.Where, c.Short(), c.PaperFigure, c.Ours, string(c.Verdict), why})
	}
	for _, tb := range []*report.Table{&roll, &t} {
		if err := tb.Render(os.Stdout, *format); err != nil {
			return err
		}
		fmt.Println()
	}
	return nil
}

// combine joins the records of result files of one scale, from one or
// several machines: a cell measured in several files counts once, its ok
// record before any other (a GPU machine's run and a CPU machine's run
// decide together what neither does alone). The schema is the lowest of
// the files': one schema-1 file makes its claims old protocol.
func combine(files []*bench.File, paths []string) ([]bench.Record, experiments.Scale, int, error) {
	scale, schema := files[0].Scale, files[0].Schema
	var recs []bench.Record
	at := map[string]int{}
	for i, f := range files {
		if f.Source != "" {
			return nil, "", 0, usagef("%s is a paper's transcription (%s), not a run", paths[i], f.Source)
		}
		if f.Scale != scale {
			return nil, "", 0, usagef("%s is a %s-scale run and %s a %s-scale one: claims are judged at one scale", paths[0], scale, paths[i], f.Scale)
		}
		schema = min(schema, f.Schema)
		for _, r := range f.Records {
			k, seen := at[r.Key()]
			switch {
			case !seen:
				at[r.Key()] = len(recs)
				recs = append(recs, r)
			case r.Status == bench.StatusOK || recs[k].Status != bench.StatusOK:
				recs[k] = r
			}
		}
	}
	sc, err := experiments.ParseScale(scale)
	if err != nil {
		sc = experiments.Paper
	}
	return recs, sc, schema, nil
}
