package report

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
)

// CompareOptions narrows and orders a comparison.
type CompareOptions struct {
	// Experiment keeps only the named experiment; "" compares all.
	Experiment string
	// Phase keeps only the named phase (e.g. "total", "update_w") in the
	// tables of every cell, and asks for them (Cells); "" shows every
	// phase present in any file.
	Phase string
	// Cells adds, after the summary, one table per experiment of every
	// cell's phases in every file (with one file they are all there is).
	Cells bool
	// Sort orders each table's rows by implementation, then by parameter
	// values (numbers numerically, so n=500 comes before n=1000). By
	// default rows keep the order in which the files list their records.
	Sort bool
	// AcrossCommits keeps in the summary's ratios the cells of
	// implementations whose code changed between the files' commits.
	AcrossCommits bool
	// Top is how many cells the summary lists that differ most beyond
	// their noise; 0: DefaultTop.
	Top int
	// Paths are the files' paths, for the legend; nil: none shown.
	Paths []string
	// ScaleOf names the scale whose cases of an experiment have the given
	// parameters ("" when none has), so that cells one file lacks can be
	// told apart by the run that would measure them. Nil: a cell's scale is
	// taken from the Scale of the file that has it.
	ScaleOf func(experiment string, params bench.Params) string
	// KnownImpl reports whether this semibench can run an experiment's
	// implementation, so that no suggested run names one it cannot; nil:
	// every implementation is known.
	KnownImpl func(experiment, impl string) bool
	// Claims judges a measured file's claims (the verdicts live above this
	// package, which package experiments renders with); nil: no claims.
	Claims func(*bench.File) []ClaimClass
	// Work is the least work one run of a record's cell does, declared by
	// its experiment (experiments.WorkOf); nil: no bound is called.
	Work func(*bench.Record) (bench.Work, bool)
	// Window is the window of a record's cell that its paper times where
	// that window is a set of the cell's phases (experiments.WindowOf): a
	// cell that declares one is called bound by that window, beside its
	// whole; nil: by the whole cell alone.
	Window func(*bench.Record) (bench.Window, bool)
	// Code says what changed in the measured code between two commits
	// (CodeChanges); nil: the difference is unknown, so two files of
	// different commits have every implementation possibly changed.
	Code func(from, to string) CodeChanges
}

// ClaimClass is one claim's class on one file: ID names the claim across
// files, Experiment shows it, Where and Text say it ("Kleene (000) Table
// 3", "the GPU's speedup grows with n"), Class is its verdict and Ours the
// file's figure, whole ("—" when none).
type ClaimClass struct{ ID, Experiment, Where, Text, Class, Ours string }

// NoRecord marks a cell of a comparison that a file has no record of.
const NoRecord = "no record"

// Compare lines result files up side by side. Records are aligned on
// Record.Key (experiment, implementation, parameters), so a paper's
// transcribed table, whose records use the same experiment, impl and params
// names as measured runs, lines up with "my run" like any other machine.
//
// With several files it leads with a preface (each file's short label and
// machine, and their commits: one, or both with the implementations whose
// code changed between them, CompareOptions.Code), then against each later
// file a summary a person reads in a minute (whereSummary): per experiment
// and side (device, transfers, host; Side) the geometric mean of the cells'
// ratios of the first file's time to the later one's, its spread, the
// ratios the GPUs' peaks predict and each GPU's bound; the published codes
// beside cuda/fast (peersTable); when CompareOptions.Claims is set and two
// or more files were measured, the claims whose class differs
// (claimsTable); and the cells that differ most beyond their noise
// (topCells).
//
// With one file, or CompareOptions.Cells, it then gives one table per
// experiment (in the files' order) that at least two of the files have
// (every experiment when there is one file). A row is an (impl, params,
// phase) found in any file; there is one column per file, headed by
// labels[i] (default: a short alias of the file's machine, aliasLabels),
// holding the phase's statistic in ms, or the record's status when it did
// not run ("skipped (est. 12 s)", "unavailable", "failed"), or NoRecord
// when the file has no such record. Then comes one ratio column per later
// file, "first/later": the first file's time divided by the later file's,
// so a value above 1 means the later file is faster; blank where either
// side has no time. Cells unavailable in every file that has them (a CUDA
// implementation on two machines without a GPU) are not listed: a note
// counts them, one line per experiment.
//
// Files at different scales (a paper's table beside a quick run) share few
// cells or none: every row is still shown, and the notes say, for each
// measured file, which cells it lacks, their scale (CompareOptions.ScaleOf,
// or the Scale of the file that has them) and the run that would measure
// them. Experiments only one file has are named in the preface.
//
// labels may be nil, or hold one entry per file ("" entries take the
// default). It is an error to pass no files, a labels slice of the wrong
// length, an experiment no file has, a phase no record has, or files that
// share no experiment. With a chosen phase, experiments in which no record
// has it are left out.
func Compare(files []*bench.File, labels []string, opt CompareOptions) ([]Table, error) {
	c, shown, alone, details, err := prepare(files, labels, opt)
	if err != nil {
		return nil, err
	}
	if len(files) == 1 {
		return details, nil
	}
	preface := c.preface()
	if len(alone) > 0 {
		preface.Notes = append(preface.Notes, "Not compared, in one file only: "+strings.Join(alone, ", ")+".")
	}
	out := []Table{preface}
	for i := 1; i < len(files); i++ {
		out = append(out, c.whereSummary(shown, i))
		if t, ok := c.peersTable(shown, i); ok {
			out = append(out, t)
		}
	}
	if t, ok := c.claimsTable(); ok {
		out = append(out, t)
	}
	for i := 1; i < len(files); i++ {
		if t, ok := c.topCells(shown, i); ok {
			out = append(out, t)
		}
	}
	if opt.Cells || opt.Phase != "" {
		for i := 1; i < len(files); i++ {
			out = append(out, c.gpuCellsTables(shown, i)...)
		}
		return append(out, details...), nil
	}
	last := &out[len(out)-1]
	last.Notes = append(last.Notes, "Every cell's phases: semibench compare --cells (--experiment NAME for one experiment).")
	return out, nil
}

// prepare checks Compare's arguments, indexes the files and builds the
// tables of every cell: the comparison, the experiments shown (shared,
// with the chosen phase), those in one file only, and their tables.
func prepare(files []*bench.File, labels []string, opt CompareOptions) (c *comparison, shown, alone []string, details []Table, err error) {
	if err := checkCompareArgs(files, labels); err != nil {
		return nil, nil, nil, nil, err
	}
	if labels == nil {
		labels = aliasLabels(files)
	}
	c = newComparison(files, uniqueLabels(files, labels), opt)
	exps, err := c.indexRecords()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	exps, alone, err = c.sharedExperiments(exps)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for _, exp := range exps {
		if t, ok := c.table(exp); ok {
			details = append(details, t)
			shown = append(shown, exp)
		}
	}
	if len(details) == 0 {
		return nil, nil, nil, nil, c.noPhaseError()
	}
	return c, shown, alone, details, nil
}

// checkCompareArgs rejects what Compare cannot line up: no files, a nil
// file, or a labels slice of the wrong length.
func checkCompareArgs(files []*bench.File, labels []string) error {
	if len(files) == 0 {
		return fmt.Errorf("compare: no files")
	}
	if labels != nil && len(labels) != len(files) {
		return fmt.Errorf("compare: %d labels for %d files", len(labels), len(files))
	}
	for i, f := range files {
		if f == nil {
			return fmt.Errorf("compare: file %d is nil", i+1)
		}
	}
	return nil
}

// comparison is the state of one Compare: the files, their column labels,
// and their records indexed by key.
type comparison struct {
	files []*bench.File
	names []string // column label per file
	opt   CompareOptions
	// old marks a measured schema-1 file, which timed another window than
	// today's: its headline phases stand marked, with no ratio to a
	// current file's. anyOld and anyNew say whether any file is old, and
	// whether any measured file is current.
	old            []bool
	anyOld, anyNew bool
	index          []map[string]*bench.Record // per file: key -> record
	keys           map[string][]string        // experiment -> keys, first-seen order
	has            map[string][]int           // experiment -> the files that have it
	// peaks are each file's first GPU's ceilings, nil for a file without
	// one; change is each later file's code against the first's.
	peaks  []*Peaks
	change []changes
}

// newComparison labels the files and notes which were timed under the
// old protocol.
func newComparison(files []*bench.File, names []string, opt CompareOptions) *comparison {
	c := &comparison{files: files, names: names, opt: opt, old: make([]bool, len(files))}
	for i, f := range files {
		c.old[i] = oldProtocol(f)
		c.anyOld = c.anyOld || c.old[i]
		c.anyNew = c.anyNew || !c.old[i] && f.Source == ""
		if p, ok := FirstGPU(f); ok {
			c.peaks = append(c.peaks, &p)
		} else {
			c.peaks = append(c.peaks, nil)
		}
	}
	c.change = make([]changes, len(files))
	for i := 1; i < len(files); i++ {
		c.change[i] = c.codeChanges(i)
	}
	return c
}

// indexRecords indexes every file's records (of the chosen experiment, if
// any) by key, a later record of a key replacing an earlier one as Merge
// does, and returns the experiments in first-seen order. No record at all
// is an error.
func (c *comparison) indexRecords() ([]string, error) {
	c.index = make([]map[string]*bench.Record, len(c.files))
	c.keys = map[string][]string{}
	c.has = map[string][]int{}
	var exps []string
	seen := map[string]bool{}
	for i, f := range c.files {
		c.index[i] = map[string]*bench.Record{}
		for j := range f.Records {
			r := &f.Records[j]
			if c.opt.Experiment != "" && r.Experiment != c.opt.Experiment {
				continue
			}
			if fs := c.has[r.Experiment]; len(fs) == 0 || fs[len(fs)-1] != i {
				c.has[r.Experiment] = append(fs, i)
			}
			k := r.Key()
			c.index[i][k] = r
			if !seen[k] {
				seen[k] = true
				if _, ok := c.keys[r.Experiment]; !ok {
					exps = append(exps, r.Experiment)
				}
				c.keys[r.Experiment] = append(c.keys[r.Experiment], k)
			}
		}
	}
	if len(exps) == 0 {
		if c.opt.Experiment != "" {
			return nil, fmt.Errorf("compare: no file has experiment %q (files: %s; experiments: %s)",
				c.opt.Experiment, strings.Join(c.names, ", "), strings.Join(allExperiments(c.files), ", "))
		}
		return nil, fmt.Errorf("compare: the files hold no records (files: %s)", strings.Join(c.names, ", "))
	}
	return exps, nil
}

// sharedExperiments keeps, with several files, the experiments two or
// more of them have, and names the others with the file that has them
// (alone). It is an error when no experiment is shared.
func (c *comparison) sharedExperiments(exps []string) (shared, alone []string, err error) {
	if len(c.files) == 1 {
		return exps, nil, nil
	}
	for _, exp := range exps {
		if len(c.has[exp]) > 1 {
			shared = append(shared, exp)
		} else {
			alone = append(alone, exp+" ("+c.names[c.has[exp][0]]+")")
		}
	}
	if len(shared) == 0 {
		var per []string
		for i, f := range c.files {
			per = append(per, c.names[i]+": "+orNone(strings.Join(allExperiments([]*bench.File{f}), ", ")))
		}
		what := "no experiment appears"
		if c.opt.Experiment != "" {
			what = "experiment " + strconv.Quote(c.opt.Experiment) + " does not appear"
		}
		return nil, nil, fmt.Errorf("compare: %s in more than one file, so nothing aligns (%s)", what, strings.Join(per, "; "))
	}
	return shared, alone, nil
}

// table builds an experiment's table: header, one row per (key, phase),
// and the notes. It reports false when a phase was chosen and no record
// of the experiment has it.
func (c *comparison) table(exp string) (Table, bool) {
	ks := c.keys[exp]
	if c.opt.Phase != "" && !hasPhase(c.index, ks, c.opt.Phase) {
		return Table{}, false
	}
	rep := c.representatives(ks)
	if c.opt.Sort {
		slices.SortStableFunc(ks, func(a, b string) int {
			return compareRecords(rep[a].r, rep[b].r)
		})
	}
	var params []string
	for _, k := range ks {
		for _, p := range rep[k].r.Params {
			params = appendNew(params, p.Name)
		}
	}
	t := Table{Title: exp + " — ms", Header: c.header(params)}
	if c.opt.Phase != "" {
		t.Title = exp + " — " + c.opt.Phase + ", ms"
	}
	var unavailable []string // the impls of the cells not listed
	n := 0
	for _, k := range ks {
		if c.unavailableEverywhere(k) {
			unavailable = appendNew(unavailable, rep[k].r.Impl)
			n++
			continue
		}
		for _, phase := range rowPhases(c.index, k, c.opt.Phase) {
			t.Rows = append(t.Rows, c.row(rep[k].r, k, params, phase))
		}
	}
	if n > 0 && len(c.files) > 1 {
		t.Notes = append(t.Notes, fmt.Sprintf("Not listed: %d cell(s) unavailable in every file that has them (%s).",
			n, strings.Join(unavailable, ", ")))
	}
	t.Notes = append(t.Notes, c.notes(exp, ks, rep)...)
	return t, true
}

// unavailableEverywhere reports whether, with several files, every file's
// record of key k is unavailable or missing: a row with nothing to read.
func (c *comparison) unavailableEverywhere(k string) bool {
	if len(c.files) < 2 {
		return false
	}
	for _, m := range c.index {
		if r := m[k]; r != nil && r.Status != bench.StatusUnavailable {
			return false
		}
	}
	return true
}

// claimsTitle is the title of the table of claims whose class differs.
const claimsTitle = "Claims whose class differs"

// claimsTable lists the claims whose class differs between the measured
// files (not papers' tables), with a column of class and figure per file.
// It reports false without CompareOptions.Claims or two measured files.
func (c *comparison) claimsTable() (Table, bool) {
	t := Table{Title: claimsTitle, Header: []string{"claim"}}
	var judged []map[string]ClaimClass
	var order []ClaimClass // first-seen order
	for i, f := range c.files {
		if c.opt.Claims == nil || f.Source != "" {
			continue
		}
		m := map[string]ClaimClass{}
		for _, cl := range c.opt.Claims(f) {
			if c.opt.Experiment == "" || cl.Experiment == c.opt.Experiment {
				if !slices.ContainsFunc(order, func(o ClaimClass) bool { return o.ID == cl.ID }) {
					order = append(order, cl)
				}
				m[cl.ID] = cl
			}
		}
		t.Header = append(t.Header, c.names[i])
		judged = append(judged, m)
	}
	for _, cl := range order {
		row, differs := []string{cl.Where + ": " + cl.Text}, false
		for _, m := range judged {
			got, ok := m[cl.ID]
			differs = differs || !ok || got.Class != judged[0][cl.ID].Class
			text := got.Class
			if got.Ours != "" && got.Ours != "—" {
				text += " (" + got.Ours + ")"
			}
			row = append(row, cmp.Or(text, "—"))
		}
		if differs {
			t.Rows = append(t.Rows, row)
		}
	}
	t.Notes = []string{fmt.Sprintf("%d of %d claims differ in class between the files; the others agree.", len(t.Rows), len(order))}
	if len(t.Rows) == 0 {
		t.Header = nil // no empty frame: the note says it
	}
	return t, len(judged) >= 2
}

// representatives gives each key a record from the first file that has
// it: the impl and params of its rows.
func (c *comparison) representatives(keys []string) map[string]held {
	rep := map[string]held{}
	for _, k := range keys {
		for i := range c.files {
			if r := c.index[i][k]; r != nil {
				rep[k] = held{r, i}
				break
			}
		}
	}
	return rep
}

// header is impl, the parameters, phase (unless one was chosen), one
// column per file, then one ratio column per later file.
func (c *comparison) header(params []string) []string {
	h := append([]string{"impl"}, params...)
	if c.opt.Phase == "" {
		h = append(h, "phase")
	}
	h = append(h, c.names...)
	for i := 1; i < len(c.files); i++ {
		h = append(h, c.names[0]+"/"+c.names[i])
	}
	return h
}

// row is one (key, phase) row: the representative's impl and params, each
// file's cell, then the ratios of the first file's time to each later
// file's.
func (c *comparison) row(rep *bench.Record, k string, params []string, phase string) []string {
	row := []string{rep.Impl}
	for _, p := range params {
		row = append(row, rep.Params.Get(p))
	}
	if c.opt.Phase == "" {
		row = append(row, phase)
	}
	vals := make([]float64, len(c.files))
	ok := make([]bool, len(c.files))
	for i := range c.files {
		r := c.index[i][k]
		if r == nil {
			row = append(row, NoRecord)
			continue
		}
		text := PhaseText(r, phase)
		if c.old[i] && c.anyNew && headlinePhase(phase) {
			text += " (old protocol)"
		}
		row = append(row, text)
		vals[i], ok[i] = phaseValue(r, phase)
	}
	for i := 1; i < len(c.files); i++ {
		if headlinePhase(phase) && c.old[0] != c.old[i] {
			row = append(row, "") // different windows: no ratio
		} else if ok[0] && ok[i] && vals[i] != 0 {
			row = append(row, FormatRatio(vals[0]/vals[i]))
		} else {
			row = append(row, "")
		}
	}
	return row
}

// notes says how to read the ratios, where each column comes from, what
// the old protocol means when it appears, and why cells are missing.
func (c *comparison) notes(exp string, keys []string, rep map[string]held) []string {
	var notes []string
	if len(c.files) > 1 {
		notes = append(notes, fmt.Sprintf("Ratios: %s's time / the other file's time; above 1 means the other file is faster.", c.names[0]))
	}
	for i, f := range c.files {
		notes = append(notes, c.names[i]+": "+describeFile(f))
	}
	if c.anyOld && c.anyNew {
		notes = append(notes, "Old protocol: a schema-1 run's total and end_to_end timed another window than today's "+
			"(the whole call; the Hungarian CUDA figure a sum of device phases), so they are marked and have no ratio to a current run's.")
	}
	return append(notes, alignNotes(exp, keys, rep, c.index, c.files, c.names, c.opt.ScaleOf, c.opt.KnownImpl)...)
}

// noPhaseError is Compare's error when the chosen phase is in no record:
// it lists the phases there are.
func (c *comparison) noPhaseError() error {
	var phases []string
	for _, m := range c.index {
		for _, r := range m {
			for _, p := range r.Phases {
				phases = appendNew(phases, p.Name)
			}
		}
	}
	slices.Sort(phases)
	return fmt.Errorf("compare: no record has phase %q (phases: %s)", c.opt.Phase, strings.Join(phases, ", "))
}

// held is a record and the index of the file holding it.
type held struct {
	r    *bench.Record
	file int
}

// orNone is s, or "none" when s is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// rowPhases lists the phases shown for key k: every phase any file's record
// of k has, in first-seen order, or only the chosen one. A key whose records
// carry no phases at all (skipped or unavailable everywhere) gets one row,
// under the chosen phase or "total", to show the statuses. With a chosen
// phase, a key gets no row when all its records ran and none has it.
func rowPhases(index []map[string]*bench.Record, k, only string) []string {
	var phases []string
	notRun := false
	for _, m := range index {
		if r := m[k]; r != nil {
			for _, p := range r.Phases {
				phases = appendNew(phases, p.Name)
			}
			notRun = notRun || (r.Status != bench.StatusOK && r.Status != bench.StatusCheckFailed)
		}
	}
	if only != "" {
		if slices.Contains(phases, only) || notRun {
			return []string{only}
		}
		return nil
	}
	if len(phases) == 0 {
		phases = []string{bench.TotalPhase}
	}
	return phases
}

// hasPhase reports whether any file's record of the keys has the phase.
func hasPhase(index []map[string]*bench.Record, keys []string, phase string) bool {
	for _, m := range index {
		for _, k := range keys {
			if r := m[k]; r != nil && r.Phase(phase) != nil {
				return true
			}
		}
	}
	return false
}

// phaseValue returns a record's statistic for a phase when it has one that
// can enter a ratio: the record ran (ok or check-failed) and has the phase.
func phaseValue(r *bench.Record, phase string) (float64, bool) {
	if r.Status != bench.StatusOK && r.Status != bench.StatusCheckFailed {
		return 0, false
	}
	p := r.Phase(phase)
	if p == nil {
		return 0, false
	}
	return p.StatMS, true
}

// uniqueLabels returns the column label of every file: the given label, or
// the machine label, or "file N"; repeats get "#2", "#3", ... appended.
func uniqueLabels(files []*bench.File, labels []string) []string {
	out := make([]string, len(files))
	used := map[string]bool{}
	for i, f := range files {
		l := ""
		if labels != nil {
			l = labels[i]
		}
		if l == "" {
			l = fileLabel(f, i)
		}
		base := l
		for n := 2; used[l]; n++ {
			l = base + "#" + strconv.Itoa(n)
		}
		used[l] = true
		out[i] = l
	}
	return out
}

// describeFile is a one-line note on where a column's numbers come from.
func describeFile(f *bench.File) string {
	var parts []string
	m := f.Machine
	if m.CPU != "" {
		cpu := m.CPU
		if m.Cores > 0 {
			cpu += fmt.Sprintf(" (%d cores)", m.Cores)
		}
		parts = append(parts, cpu)
	}
	for _, g := range m.GPUs {
		parts = append(parts, "GPU "+g.Name)
	}
	if f.Source != "" {
		parts = append(parts, "from "+f.Source)
	} else if f.Semibench.Version != "" {
		s := "semibench " + f.Semibench.Version
		if f.Scale != "" {
			s += ", scale " + f.Scale
		}
		parts = append(parts, s)
	}
	stats := map[string]bool{}
	var names []string
	for _, r := range f.Records {
		if r.Statistic != "" && !stats[r.Statistic] {
			stats[r.Statistic] = true
			names = append(names, r.Statistic)
		}
	}
	if len(names) > 0 {
		parts = append(parts, "statistic "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return "no machine details"
	}
	return strings.Join(parts, "; ")
}

// allExperiments lists the experiments of files, first-seen order.
func allExperiments(files []*bench.File) []string {
	var out []string
	for _, f := range files {
		for _, r := range f.Records {
			out = appendNew(out, r.Experiment)
		}
	}
	return out
}

// compareRecords orders records by implementation, then by parameters in
// order, numeric values numerically and before non-numeric ones.
func compareRecords(a, b *bench.Record) int {
	if c := cmp.Compare(a.Impl, b.Impl); c != 0 {
		return c
	}
	for i := 0; i < len(a.Params) && i < len(b.Params); i++ {
		pa, pb := a.Params[i], b.Params[i]
		if c := cmp.Compare(pa.Name, pb.Name); c != 0 {
			return c
		}
		if c := compareValues(pa.Value, pb.Value); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a.Params), len(b.Params))
}

// compareValues orders parameter values: numbers numerically, numbers
// before words, words lexically.
func compareValues(a, b string) int {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	switch {
	case ea == nil && eb == nil:
		if c := cmp.Compare(fa, fb); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	case ea == nil:
		return -1
	case eb == nil:
		return 1
	}
	return cmp.Compare(a, b)
}

// oldProtocol reports whether f is a run measured under the first timing
// protocol (schema 1's), not a paper's transcription.
func oldProtocol(f *bench.File) bool { return f.TimingProtocol() < 2 && f.Source == "" }

// headlinePhase reports whether a phase is one whose window the protocol
// changed: total and end_to_end.
func headlinePhase(phase string) bool {
	return phase == bench.TotalPhase || phase == bench.EndToEndPhase
}
