package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/cmd/semibench/internal/cli"
	"github.com/semibench/semibench/cmd/semibench/internal/placement"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/generators/lapcost"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/domination"
)

// `semibench peers record` turns the samples a published code measured
// (the peer scripts of results/peers/README.md run it) into a record of the standard result file, with
// the experiment and parameters of semibench's own cell so that tables align
// the two, and the peer's answer checked like semibench's.

func init() {
	register(&command{
		name:    "peers",
		summary: "record a published code's measured samples as a result record (peers record --help)",
		usage: "peers record --out FILE --experiment hungarian/table1|hungarian/batch|hungarian/batch-float|domination/table2 --impl peer/NAME " +
			"--param NAME=VALUE... --phase total=MS,MS,...|end_to_end=MS,... " +
			"[--cost C --instance FILE.csv [--seed S]] [--costs FILE --instance BATCH [--seed S]] [--recurrence r0=R,n0=N,a=A,b=B] [--machine-of FILE] [--note TEXT]... [--file-note TEXT]...",
		run: peersCmd,
	})
}

// peerExperiments are the experiments peers are recorded under; their
// parameters are checked against the experiment's own cells.
var peerExperiments = []string{"hungarian/table1", "hungarian/batch", "hungarian/batch-float", "domination/table2"}

// peerBatchExperiments are those whose peers report an answer per problem
// of a batch (--costs).
var peerBatchExperiments = []string{"hungarian/batch", "hungarian/batch-float"}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, "; ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// peerRecord is what `peers record` was asked to write.
type peerRecord struct {
	out, experiment, impl, instance, recurrence string
	costs                                       string // the batch experiments: the peer's answers, a file
	params                                      bench.Params
	phases                                      []bench.Phase
	cost                                        int64
	haveCost                                    bool
	seed                                        uint64
	notes, fileNotes                            []string
	// machineOf is a result file of the machine that ran the peer (a run
	// of the same device command), when the record is made on another
	// host: its machine header describes the new file.
	machineOf string
}

func peersCmd(ctx context.Context, args []string) error {
	c := commands["peers"]
	if len(args) == 0 {
		return usagef("name a subcommand: record")
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		fmt.Printf("usage: semibench %s\n\n%s\n\nsemibench peers record --help shows its flags.\n", c.usage, c.summary)
		return flag.ErrHelp
	}
	if args[0] != "record" {
		return usagef("unknown subcommand %q (known: record)", args[0])
	}
	pr, err := parsePeerRecord(args[1:])
	if err != nil {
		return err
	}
	machine, err := pr.machine(ctx)
	if err != nil {
		return err
	}
	rec, err := pr.record(ctx)
	if err != nil {
		return err
	}
	if err := appendPeerRecord(pr.out, machine, rec, pr.fileNotes); err != nil {
		return err
	}
	verdict := "check passed"
	if rec.Check != nil && !rec.Check.OK {
		verdict = "CHECK FAILED: " + rec.Check.Detail
	} else if rec.Check == nil {
		verdict = "no check"
	}
	fmt.Fprintf(os.Stderr, "semibench peers: %s %s %s -> %s (%s)\n", rec.Experiment, rec.Impl, rec.Params, pr.out, verdict)
	return nil
}

// machine is the machine the peer ran on: this host's, or that of the
// result file --machine-of names (read before the check, which can take
// minutes), with a note in the record saying where it was recorded.
func (pr *peerRecord) machine(ctx context.Context) (bench.Machine, error) {
	here := currentMachine()
	if pr.machineOf == "" {
		return here, nil
	}
	src, err := bench.ReadFileContext(ctx, pr.machineOf)
	if err != nil {
		return bench.Machine{}, fmt.Errorf("--machine-of: %w", err)
	}
	if src.Machine.Label == "" {
		return bench.Machine{}, fmt.Errorf("--machine-of %s: its header names no machine", pr.machineOf)
	}
	pr.notes = append(pr.notes, fmt.Sprintf("measured on %s (the machine of %s); recorded and checked on %s",
		src.Machine.Label, filepath.Base(pr.machineOf), here.Label))
	return src.Machine, nil
}

// parsePeerRecord reads and validates the flags of `peers record`.
func parsePeerRecord(args []string) (*peerRecord, error) {
	fs := flag.NewFlagSet("peers record", flag.ContinueOnError)
	pr := &peerRecord{}
	var params, phases, notes, fileNotes multiFlag
	fs.StringVar(&pr.out, "out", "", "result file to append the record to (created when absent; one line, fsynced)")
	fs.StringVar(&pr.experiment, "experiment", "", "semibench experiment whose cell the peer ran: "+strings.Join(peerExperiments, " or "))
	fs.StringVar(&pr.impl, "impl", "", "implementation name, peer/NAME, one the experiment's tables read ("+peerNames()+")")
	fs.Var(&params, "param", "a parameter of the cell, NAME=VALUE, repeated: n=1024 and range=n for hungarian/table1, rows=300, cols=600 and count=208 for hungarian/batch-float, m=9 for domination/table2 (the experiment's own names and values)")
	fs.Var(&phases, "phase", "a headline phase and every sample in ms, NAME=MS,MS,...: total (input already on the device) and/or end_to_end (host to host), repeated")
	cost := fs.String("cost", "", "the optimal cost the peer reported (LAP); checked against the certified optimum of --instance")
	fs.StringVar(&pr.instance, "instance", "", "the cost matrix `FILE` the peer solved, as semibench gen lap writes it (CSV; for the batch experiments the batch file of gen lap --count, with --dist uniform01 for hungarian/batch-float); must be the cell's instance for --seed")
	fs.StringVar(&pr.costs, "costs", "", "hungarian/batch and batch-float: a `FILE` of the peer's answers, "+cli.AnswersFormat+"; each is checked against the certified optimum of its problem of --instance")
	fs.Uint64Var(&pr.seed, "seed", 1, "generator seed of the cell's instance (semibench run's --seed, 1 by default)")
	fs.StringVar(&pr.recurrence, "recurrence", "", "domination/table2: the peer's printed r0m=R,n0m=N,am=A,bm=B as r0=R,n0=N,a=A,b=B, compared with semibench's Algorithms 3-4 on cpu/sparse (its r0m is our r0 + 1)")
	fs.Var(&notes, "note", "a remark kept in the record (what the peer ran on, its generator if not ours), repeated")
	fs.Var(&fileNotes, "file-note", "a note kept in the file (the peer's repository and commit, build flags and fixes, timing method), repeated; added once")
	fs.StringVar(&pr.machineOf, "machine-of", "", "a result `FILE` written on the machine that ran the peer (semibench's own run in the same device command): the new file's machine is that file's, not this host's, so that the record and its check can be made on another host; the record notes both")
	if err := parseFlags(fs, &command{name: "peers record", summary: commands["peers"].summary, usage: commands["peers"].usage}, args, "out", "experiment", "impl"); err != nil {
		return nil, err
	}
	if !slices.Contains(peerExperiments, pr.experiment) {
		return nil, usagef("--experiment: %q is not one peers are recorded under (%s)", pr.experiment, strings.Join(peerExperiments, ", "))
	}
	if !strings.HasPrefix(pr.impl, "peer/") || len(pr.impl) == len("peer/") || strings.ContainsAny(pr.impl, " \t,|") {
		return nil, usagef("--impl: %q must be peer/NAME (one word)", pr.impl)
	}
	if known := placement.Peers[pr.experiment]; !slices.Contains(known, pr.impl) {
		return nil, usagef("--impl: %s's tables read no published code %q, so every reader would leave the record out (they read %s)", pr.experiment, pr.impl, strings.Join(known, ", "))
	}
	for _, p := range params {
		name, value, ok := strings.Cut(p, "=")
		if !ok || name == "" || value == "" {
			return nil, usagef("--param %q: want NAME=VALUE", p)
		}
		if pr.params.Get(name) != "" {
			return nil, usagef("--param %s given twice", name)
		}
		pr.params = append(pr.params, bench.Param{Name: name, Value: value})
	}
	if len(phases) == 0 {
		return nil, usagef("--phase: give total and/or end_to_end with their samples")
	}
	for _, p := range phases {
		ph, err := parsePeerPhase(p)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(pr.phases, func(q bench.Phase) bool { return q.Name == ph.Name }) {
			return nil, usagef("--phase %s given twice", ph.Name)
		}
		pr.phases = append(pr.phases, ph)
	}
	// total first, then end_to_end, as Measure orders them.
	slices.SortStableFunc(pr.phases, func(a, b bench.Phase) int { return strings.Compare(b.Name, a.Name) })
	if *cost != "" {
		v, err := strconv.ParseInt(*cost, 10, 64)
		if err != nil {
			return nil, usagef("--cost %q: want an integer", *cost)
		}
		pr.cost, pr.haveCost = v, true
	}
	switch pr.experiment {
	case "hungarian/table1":
		if pr.recurrence != "" {
			return nil, usagef("--recurrence is for domination/table2")
		}
		if pr.haveCost != (pr.instance != "") {
			return nil, usagef("--cost and --instance go together (the peer's cost, checked on the instance it solved)")
		}
	case "hungarian/batch", "hungarian/batch-float":
		if pr.recurrence != "" || pr.haveCost {
			return nil, usagef("%s takes --costs FILE (the peer's answer per problem) with --instance, not --cost or --recurrence", pr.experiment)
		}
		if (pr.costs != "") != (pr.instance != "") {
			return nil, usagef("--costs and --instance go together (the peer's objectives, checked on the batch it solved)")
		}
	case "domination/table2":
		if pr.haveCost || pr.instance != "" || pr.costs != "" {
			return nil, usagef("--cost, --costs and --instance are for the Hungarian experiments")
		}
	}
	if pr.costs != "" && !slices.Contains(peerBatchExperiments, pr.experiment) {
		return nil, usagef("--costs is for %s", strings.Join(peerBatchExperiments, " and "))
	}
	pr.notes, pr.fileNotes = notes, fileNotes
	return pr, nil
}

// peersAlone says how a peers file is read (beside the run of its
// machine: table --merge RUN PEERS), where one is read without a run: bad
// usage when every file is a peers file (its records alone render
// nothing), a note on w for each one read apart (not merged).
func peersAlone(w io.Writer, cmd string, files []*bench.File, paths []string, merged bool) error {
	var peers []string
	for i, f := range files {
		if f.IsPeers() {
			peers = append(peers, paths[i])
		}
	}
	if len(peers) == 0 {
		return nil
	}
	if len(peers) == len(files) {
		return usagef("%s: peers files alone (published codes measured beside a run): their records stand in the run's tables; name the run with them, semibench %s --merge RUN %s", strings.Join(peers, ", "), cmd, strings.Join(peers, " "))
	}
	if !merged {
		for _, p := range peers {
			fmt.Fprintf(w, "semibench %s: %s is a peers file: its records stand in a run's tables, read with semibench %s --merge RUN %s\n", cmd, p, cmd, p)
		}
	}
	return nil
}

// peerNames lists the published codes the tables read, by experiment
// ("peer/hylac-stream for hungarian/batch; ...").
func peerNames() string {
	var parts []string
	for _, e := range peerExperiments {
		parts = append(parts, strings.Join(placement.Peers[e], ", ")+" for "+e)
	}
	return strings.Join(parts, "; ")
}

// parsePeerPhase parses NAME=MS,MS,... into a headline phase with its
// median.
func parsePeerPhase(s string) (bench.Phase, error) {
	name, list, ok := strings.Cut(s, "=")
	if !ok || list == "" {
		return bench.Phase{}, usagef("--phase %q: want NAME=MS,MS,...", s)
	}
	if name != bench.TotalPhase && name != bench.EndToEndPhase {
		return bench.Phase{}, usagef("--phase %q: a peer records %s and %s only (its code gives no breakdown of ours)", name, bench.TotalPhase, bench.EndToEndPhase)
	}
	var xs []float64
	for _, f := range strings.Split(list, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange), v <= 0, v != v:
			return bench.Phase{}, usagef("--phase %s: sample %q is not a positive number of ms", name, f)
		case v > bench.MaxSampleMS:
			return bench.Phase{}, usagef("--phase %s: sample %q ms exceeds %g ms (%.0f years), the most a sample may hold", name, f, bench.MaxSampleMS, bench.MaxSampleMS/(1000*3600*24*365.25))
		}
		xs = append(xs, v)
	}
	med := bench.Median(xs)
	return bench.Phase{Name: name, Scope: bench.ScopeHeadline, SamplesMS: xs, MedianMS: med, StatMS: med}, nil
}

// record builds the result record: the params checked against the
// experiment's cells, the instance checked to be the cell's, the answer
// checked against semibench's certified one.
func (pr *peerRecord) record(ctx context.Context) (bench.Record, error) {
	exps, err := experiments.Lookup(pr.experiment)
	if err != nil {
		return bench.Record{}, usagef("--experiment: %v", err)
	}
	params, err := cellParams(exps[0], pr.params)
	if err != nil {
		return bench.Record{}, err
	}
	rec := bench.Record{Experiment: pr.experiment, Impl: pr.impl, Params: params, Status: bench.StatusOK,
		Statistic: bench.StatMedian, Phases: pr.phases, Finished: time.Now().UTC(), Note: strings.Join(pr.notes, " ")}
	switch pr.experiment {
	case "hungarian/table1":
		if pr.instance != "" {
			in, chk, err := checkLAPPeer(ctx, params, pr.instance, pr.seed, pr.cost)
			if err != nil {
				return bench.Record{}, err
			}
			rec.Input, rec.Check = in, chk
		}
	case "hungarian/batch", "hungarian/batch-float":
		if pr.instance != "" {
			in, chk, err := checkLAPBatchPeer(ctx, params, pr.instance, pr.seed, pr.costs)
			if err != nil {
				return bench.Record{}, err
			}
			rec.Input, rec.Check = in, chk
		}
	case "domination/table2":
		if pr.recurrence != "" {
			m, _ := strconv.Atoi(params.Get("m"))
			chk, err := checkDominationPeer(ctx, m, pr.recurrence)
			if err != nil {
				return bench.Record{}, err
			}
			rec.Check = chk
		}
	}
	if rec.Check != nil && !rec.Check.OK {
		rec.Status = bench.StatusCheckFailed
	}
	return rec, nil
}

// cellParams returns the parameters of the experiment's cell that the given
// ones name, in the experiment's order, or a usage error naming the cells.
func cellParams(e *experiments.Experiment, given bench.Params) (bench.Params, error) {
	var known, names []string
	for _, sc := range []experiments.Scale{experiments.Quick, experiments.Paper, experiments.Large} {
		for _, c := range e.Cases(sc, experiments.Options{Seed: 1}) {
			if !slices.Contains(known, c.Params.String()) {
				known = append(known, c.Params.String())
			}
			for _, p := range c.Params {
				if !slices.Contains(names, p.Name) {
					names = append(names, p.Name)
				}
			}
			if len(c.Params) != len(given) {
				continue
			}
			match := true
			for _, p := range c.Params {
				if given.Get(p.Name) != p.Value {
					match = false
					break
				}
			}
			if match {
				return slices.Clone(c.Params), nil
			}
		}
	}
	for _, p := range given {
		if !slices.Contains(names, p.Name) {
			return nil, usagef("--param %s: %s has no parameter %q (its parameters: %s)", p.Name+"="+p.Value, e.Name, p.Name, strings.Join(names, ", "))
		}
	}
	if len(given) == 0 {
		return nil, usagef("--param: name the cell with NAME=VALUE (the cells of %s: %s)", e.Name, strings.Join(known, "; "))
	}
	return nil, usagef("--param %s: not a cell of %s (its cells: %s)", given, e.Name, strings.Join(known, "; "))
}

// lapCell reads the Hungarian cell a peer ran from its parameters: n and
// range (hungarian/table1 and batch), or rows and cols (hungarian/
// batch-float, float32 costs in [0, 1)); count for the batches.
func lapCell(params bench.Params, seed uint64) (cli.PeerCell, error) {
	count, _ := strconv.Atoi(params.Get("count"))
	if params.Get("rows") != "" {
		rows, err1 := strconv.Atoi(params.Get("rows"))
		cols, err2 := strconv.Atoi(params.Get("cols"))
		if err := errors.Join(err1, err2); err != nil {
			return cli.PeerCell{}, fmt.Errorf("params rows=%q, cols=%q: %w", params.Get("rows"), params.Get("cols"), err)
		}
		return cli.PeerCell{N: rows, Cols: cols, Dist: lapcost.Uniform01, Count: count, Seed: seed}, nil
	}
	n, err := strconv.Atoi(params.Get("n"))
	if err != nil {
		return cli.PeerCell{}, fmt.Errorf("param n=%q: %w", params.Get("n"), err)
	}
	return cli.PeerCell{N: n, Range: params.Get("range"), Count: count, Seed: seed}, nil
}

// checkLAPPeer checks the peer's cost on the cell's instance
// (cli.CheckPeerCost).
func checkLAPPeer(ctx context.Context, params bench.Params, path string, seed uint64, cost int64) (*bench.Input, *bench.Check, error) {
	cell, err := lapCell(params, seed)
	if err != nil {
		return nil, nil, err
	}
	in, chk, err := cli.CheckPeerCost(ctx, path, cell, cost)
	if err != nil {
		return nil, nil, fmt.Errorf("--instance: %w", err)
	}
	return in, chk, nil
}

// checkLAPBatchPeer checks the peer's answers (costsPath:
// cli.AnswersFormat) on the cell's batch (cli.CheckPeerCosts).
func checkLAPBatchPeer(ctx context.Context, params bench.Params, path string, seed uint64, costsPath string) (*bench.Input, *bench.Check, error) {
	cell, err := lapCell(params, seed)
	if err != nil {
		return nil, nil, err
	}
	costs, err := cli.ReadAnswers(costsPath, cell.Count, cell.Dist != "")
	if err != nil {
		return nil, nil, fmt.Errorf("--costs: %w", err)
	}
	in, chk, err := cli.CheckPeerCosts(ctx, path, cell, costs)
	if err != nil {
		return nil, nil, fmt.Errorf("--instance: %w", err)
	}
	return in, chk, nil
}

// checkDominationPeer parses the peer's recurrence, r0=R,n0=N,a=A,b=B,
// and compares it with semibench's on cpu/sparse
// (domination.CheckPeerRecurrence).
func checkDominationPeer(ctx context.Context, m int, got string) (*bench.Check, error) {
	var r domination.Recurrence
	fields := map[string]*int{"r0": &r.R0, "n0": &r.N0, "a": &r.A, "b": &r.B}
	seen := map[string]bool{}
	for _, kv := range strings.Split(got, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		x, err := strconv.Atoi(v)
		if !ok || err != nil || fields[k] == nil {
			return nil, usagef("--recurrence %q: want r0=R,n0=N,a=A,b=B (integers)", got)
		}
		*fields[k], seen[k] = x, true
	}
	if len(seen) != 4 {
		return nil, usagef("--recurrence %q: give all of r0, n0, a and b", got)
	}
	sparse, err := impls.Domination.Lookup("cpu/sparse")
	if err != nil {
		return nil, err
	}
	return domination.CheckPeerRecurrence(ctx, m, sparse, r)
}

// appendPeerRecord adds the record to the result file at path, creating it
// (machine: where the peer ran) when absent, and keeps each file note once.
func appendPeerRecord(path string, machine bench.Machine, rec bench.Record, fileNotes []string) error {
	// The header describes machine; an existing file of that machine is
	// appended to (bench.NewAppender refuses any other). Started is set
	// only for a new file, so that the many calls of one script add one
	// "appended" note.
	f := &bench.File{Schema: bench.SchemaVersion, Semibench: bench.CurrentBuild(), Machine: machine,
		Notes: []string{bench.PeersNote}}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		f.Started = time.Now().UTC() // a new file starts now; an appended one keeps its start
	}
	app, err := bench.NewAppender(path, f)
	if err != nil {
		return fmt.Errorf("--out %s: %w", path, err)
	}
	defer app.Close()
	app.AddNotes(fileNotes...)
	return app.Append(rec)
}
