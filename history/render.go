package history

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
)

// Report is what `semibench history` prints: the timelines and the claims
// asked, and what the reading saw.
type Report struct {
	// Repository is the folder read.
	Repository string
	History    *History
	Timelines  []*Timeline
	Claims     []*ClaimHistory
	// Detail prints every run of every timeline and claim; otherwise a
	// row a cell or claim, unless there are few (detailLimit).
	Detail bool
}

// detailLimit is how many timelines (or claims) are printed run by run
// without Detail.
const detailLimit = 6

// Summary says what was read: runs, commits, runs apart, files skipped,
// the cache used, and the notes.
func (r *Report) Summary() []string {
	h := r.History
	commits := map[string]bool{}
	for _, run := range h.Runs {
		commits[run.Commit] = true
	}
	line := fmt.Sprintf("history of %s: %d runs of %d commits", r.Repository, len(h.Runs), len(commits))
	if h.Git {
		line += " (the tree's files and results/'s git history)"
	}
	line += fmt.Sprintf(", %d runs apart, %d files that are no run", len(h.Apart), len(h.Skipped))
	out := []string{line}
	cache := fmt.Sprintf("file versions: %d from the cache, %d read", h.Cached, h.Read)
	if h.ClaimsCached+h.ClaimsJudged > 0 {
		cache += fmt.Sprintf("; runs' claims: %d from the cache, %d judged", h.ClaimsCached, h.ClaimsJudged)
	}
	return append(append(out, cache), h.Notes...)
}

// cellName is a timeline's cell as the tables name it.
func cellName(t *Timeline) string {
	s := t.Experiment + " " + t.Impl
	if t.Params != "" {
		s += " " + t.Params
	}
	return s
}

// stepText writes a step: commits, levels, ratio and interval.
func stepText(s TimelineStep) string {
	out := fmt.Sprintf("%s → %s: %s → %s ms, %s [%s, %s]", short(s.Before), short(s.After), report.FormatMS(s.Step.Before),
		report.FormatMS(s.Step.After), report.FormatRatio(s.Ratio), report.FormatRatio(s.Lo), report.FormatRatio(s.Hi))
	if s.Protocol != "" {
		out += " (" + s.Protocol + ")"
	}
	return out
}

func short(c string) string { return c[:min(7, len(c))] }

func noiseText(n Noise) string {
	switch n.From {
	case "replicates":
		return fmt.Sprintf("noise between runs %.1f%% (from %d pairs of replicates; floor %.0f%%)", 100*n.Sigma, n.Pairs, 100*NoiseFloor)
	case "neighbours":
		return fmt.Sprintf("noise between runs %.1f%% (from successive commits, too few replicates; floor %.0f%%)", 100*n.Sigma, 100*NoiseFloor)
	}
	return fmt.Sprintf("noise between runs %.0f%% (the floor: too few runs to measure it)", 100*n.Sigma)
}

// TimelineTable is a timeline run by run: a row per commit (its runs'
// values and median, and the step that ends at it), then the runs apart.
func TimelineTable(t *Timeline) report.Table {
	tb := report.Table{
		Title:  fmt.Sprintf("%s on %s: %s per run (ms), in commit order; %s", cellName(t), t.Kind, t.Phase, noiseText(t.Noise)),
		Header: []string{"commit", "date", "runs", "median", "values", "step before it"},
	}
	stepAt := map[int]TimelineStep{}
	for _, s := range t.Steps {
		stepAt[s.Index] = s
	}
	for i, g := range t.Groups {
		vals := make([]string, len(g.Points))
		for k, p := range g.Points {
			vals[k] = report.FormatMS(p.Value)
		}
		step := ""
		if s, ok := stepAt[i]; ok {
			step = fmt.Sprintf("%s [%s, %s]", report.FormatRatio(s.Ratio), report.FormatRatio(s.Lo), report.FormatRatio(s.Hi))
		}
		tb.Rows = append(tb.Rows, []string{short(g.Commit), g.Points[0].Run.Date().Format(time.DateOnly), fmt.Sprint(len(g.Points)),
			report.FormatMS(g.Median()), strings.Join(vals, " "), step})
	}
	for _, p := range t.Apart {
		tb.Rows = append(tb.Rows, []string{p.Run.Short(), p.Run.Date().Format(time.DateOnly), "apart", report.FormatMS(p.Value), p.Run.Apart, ""})
	}
	for _, s := range t.Steps {
		tb.Notes = append(tb.Notes, "step "+stepText(s))
	}
	if len(t.Steps) == 0 {
		tb.Notes = append(tb.Notes, "no step beyond the noise between runs")
	}
	return tb
}

// TimelinesTable is timelines a row a cell: runs, commits, the first and
// last commits' medians and the steps.
func TimelinesTable(title string, ts []*Timeline) report.Table {
	tb := report.Table{Title: title, Header: []string{"cell", "machine", "runs", "commits", "first", "last", "noise", "steps"}}
	for _, t := range ts {
		steps := make([]string, len(t.Steps))
		for i, s := range t.Steps {
			steps[i] = stepText(s)
		}
		first, last := "", ""
		if len(t.Groups) > 0 {
			first = report.FormatMS(t.Groups[0].Median()) + " (" + short(t.Groups[0].Commit) + ")"
			g := t.Groups[len(t.Groups)-1]
			last = report.FormatMS(g.Median()) + " (" + short(g.Commit) + ")"
		}
		tb.Rows = append(tb.Rows, []string{cellName(t), t.Kind.Label, fmt.Sprint(t.Runs()), fmt.Sprint(len(t.Groups)), first, last,
			fmt.Sprintf("%.1f%%", 100*t.Noise.Sigma), strings.Join(steps, "; ")})
	}
	return tb
}

// figureText writes a claim's figure in its band's unit, or "—".
func figureText(j Judged) string {
	if math.IsNaN(j.Figure) || !j.Band.Valid() {
		return "—"
	}
	return j.Band.Text(j.Figure)
}

// claimTitle is a claim's history in a line: its figures' range and
// spread, its band, its classes.
func claimTitle(c *ClaimHistory) string {
	s := fmt.Sprintf("%s on %s at %s scale: %d runs", c.ID, c.Kind, c.Scale, len(c.Runs))
	if n, lo, hi, sigma := c.Spread(); n > 0 {
		b := c.band()
		s += fmt.Sprintf("; figure %s-%s over %d runs on the timeline (spread %.0f%% between runs); band %s", b.Text(lo), b.Text(hi), n, 100*sigma, b.RangeText())
	}
	return s + "; judged alone: " + countsText(c.Classes()) + "; with history: " + countsText(c.WithHistory())
}

// countsText writes verdict counts ("4 reproduced, 1 not reproduced").
func countsText(vcs []VerdictCount) string {
	var out []string
	for _, vc := range vcs {
		out = append(out, fmt.Sprintf("%d %s", vc.Runs, vc.Verdict))
	}
	return strings.Join(out, ", ")
}

// band is the band of the claim's newest run that has one.
func (c *ClaimHistory) band() experiments.Band {
	for i := len(c.Runs) - 1; i >= 0; i-- {
		if c.Runs[i].Band.Valid() {
			return c.Runs[i].Band
		}
	}
	return experiments.Band{}
}

// ClaimTable is a claim's history run by run.
func ClaimTable(c *ClaimHistory) report.Table {
	tb := report.Table{Title: claimTitle(c), Header: []string{"commit", "date", "figure", "judged alone", "with history", "where"}}
	why := map[string]bool{}
	for _, r := range c.Runs {
		commit := r.Run.Short()
		if r.Run.Apart != "" {
			commit += " (apart)"
		}
		tb.Rows = append(tb.Rows, []string{commit, r.Run.Date().Format(time.DateOnly), figureText(r.Judged), string(r.Verdict), string(r.WithHistory), r.Run.Where})
		if r.HistoryWhy != "" {
			w, _, _ := strings.Cut(r.HistoryWhy, "; this run alone")
			if !why[w] {
				why[w] = true
				tb.Notes = append(tb.Notes, "with history: "+w)
			}
		}
	}
	return tb
}

// ClaimsTable is claims' histories a row a claim and machine kind.
func ClaimsTable(title string, cs []*ClaimHistory) report.Table {
	tb := report.Table{Title: title, Header: []string{"claim", "machine", "scale", "runs", "figures", "spread", "band", "judged alone", "with history"}}
	for _, c := range cs {
		figs, spread := "—", "—"
		if n, lo, hi, sigma := c.Spread(); n > 0 {
			b := c.band()
			figs, spread = b.Text(lo)+"-"+b.Text(hi), fmt.Sprintf("%.0f%%", 100*sigma)
		}
		tb.Rows = append(tb.Rows, []string{c.ID, c.Kind.Label, c.Scale, fmt.Sprint(len(c.Runs)), figs, spread, c.band().RangeText(),
			countsText(c.Classes()), countsText(c.WithHistory())})
	}
	return tb
}

// Tables are the report's tables: the claims, then the timelines, run by
// run where Detail is set or they are few.
func (r *Report) Tables() []report.Table {
	var out []report.Table
	if r.Detail || len(r.Claims) <= detailLimit {
		for _, c := range r.Claims {
			out = append(out, ClaimTable(c))
		}
	} else {
		out = append(out, ClaimsTable("claims: their figures and classes over the runs of each machine kind", r.Claims))
	}
	if r.Detail || len(r.Timelines) <= detailLimit {
		for _, t := range r.Timelines {
			out = append(out, TimelineTable(t))
		}
	} else if len(r.Timelines) > 0 {
		var stepped []*Timeline
		for _, t := range r.Timelines {
			if len(t.Steps) > 0 {
				stepped = append(stepped, t)
			}
		}
		tb := TimelinesTable(fmt.Sprintf("timelines: the %d of %d cells (machine kinds apart) whose headline steps over the commits", len(stepped), len(r.Timelines)), stepped)
		tb.Notes = append(tb.Notes, fmt.Sprintf("%d more cells show no step beyond the noise between runs; name a cell with --where and --impl for its runs, or --detail for every cell run by run", len(r.Timelines)-len(stepped)))
		out = append(out, tb)
	}
	return out
}

// Write writes the report in format (text or markdown) to w; width wraps
// text tables (0: no wrapping).
func (r *Report) Write(w io.Writer, format string, width int) error {
	for _, line := range r.Summary() {
		if format == report.FormatMarkdown {
			line = "> " + line
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	if len(r.Claims) == 0 && len(r.Timelines) == 0 {
		_, err := fmt.Fprintln(w, "\nno run measured what was asked")
		return err
	}
	for _, tb := range r.Tables() {
		tb.Width = width
		fmt.Fprintln(w)
		if err := tb.Render(w, format); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// The JSON form of a report.
type (
	jsonReport struct {
		Repository string         `json:"repository"`
		Notes      []string       `json:"notes,omitempty"`
		Runs       int            `json:"runs"`
		Apart      int            `json:"apart"`
		Skipped    []string       `json:"skipped,omitempty"`
		Cache      jsonCache      `json:"cache"`
		Timelines  []jsonTimeline `json:"timelines"`
		Claims     []jsonClaim    `json:"claims"`
	}
	jsonCache struct {
		VersionsCached int `json:"versions_cached"`
		VersionsRead   int `json:"versions_read"`
		ClaimsCached   int `json:"claims_cached"`
		ClaimsJudged   int `json:"claims_judged"`
	}
	jsonKind struct {
		Label string `json:"label"`
		CPU   string `json:"cpu"`
		Cores int    `json:"cores"`
		GPUs  string `json:"gpus,omitempty"`
	}
	jsonRun struct {
		Commit string    `json:"commit"`
		Date   time.Time `json:"date"`
		Where  string    `json:"where"`
		Apart  string    `json:"apart,omitempty"`
	}
	jsonPoint struct {
		jsonRun
		MS float64 `json:"ms"`
	}
	jsonGroup struct {
		Commit string      `json:"commit"`
		Median float64     `json:"median_ms"`
		Runs   []jsonPoint `json:"runs"`
	}
	jsonStep struct {
		Before     string     `json:"before"`
		After      string     `json:"after"`
		Ratio      float64    `json:"ratio"`
		Interval   [2]float64 `json:"interval"`
		BeforeMS   float64    `json:"before_ms"`
		AfterMS    float64    `json:"after_ms"`
		RunsBefore int        `json:"runs_before"`
		RunsAfter  int        `json:"runs_after"`
		Protocol   string     `json:"protocol,omitempty"`
	}
	jsonNoise struct {
		Sigma    float64 `json:"sigma"`
		Measured float64 `json:"measured"`
		From     string  `json:"from"`
		Pairs    int     `json:"pairs"`
	}
	jsonTimeline struct {
		Kind       jsonKind    `json:"kind"`
		Experiment string      `json:"experiment"`
		Impl       string      `json:"impl"`
		Params     string      `json:"params"`
		Phase      string      `json:"phase"`
		Noise      jsonNoise   `json:"noise"`
		Commits    []jsonGroup `json:"commits"`
		Apart      []jsonPoint `json:"apart,omitempty"`
		Steps      []jsonStep  `json:"steps"`
	}
	jsonClaimRun struct {
		jsonRun
		Verdict     string   `json:"verdict"`
		WithHistory string   `json:"with_history"`
		HistoryWhy  string   `json:"history_why,omitempty"`
		Figure      *float64 `json:"figure"`
		Ours        string   `json:"ours"`
	}
	jsonClaim struct {
		ID     string         `json:"id"`
		Kind   jsonKind       `json:"kind"`
		Scale  string         `json:"scale"`
		Band   string         `json:"band,omitempty"`
		N      int            `json:"figures"`
		Lo     *float64       `json:"lo,omitempty"`
		Hi     *float64       `json:"hi,omitempty"`
		Spread *float64       `json:"spread,omitempty"`
		Runs   []jsonClaimRun `json:"runs"`
	}
)

func kindJSON(k Kind) jsonKind { return jsonKind{k.Label, k.CPU, k.Cores, k.GPUs} }

func runJSON(r *Run) jsonRun {
	c := r.Commit
	if c == "" {
		c = r.Header.Semibench.Commit
	}
	return jsonRun{Commit: c, Date: r.Date(), Where: r.Where, Apart: r.Apart}
}

func number(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// WriteJSON writes the report as one JSON object: each timeline's commits
// with their runs, and its steps with before and after (full hashes),
// ratio and interval; each claim's runs with their figures and classes.
func (r *Report) WriteJSON(w io.Writer) error {
	h := r.History
	out := jsonReport{Repository: r.Repository, Notes: h.Notes, Runs: len(h.Runs), Apart: len(h.Apart), Skipped: h.Skipped,
		Cache:     jsonCache{h.Cached, h.Read, h.ClaimsCached, h.ClaimsJudged},
		Timelines: []jsonTimeline{}, Claims: []jsonClaim{}}
	for _, t := range r.Timelines {
		jt := jsonTimeline{Kind: kindJSON(t.Kind), Experiment: t.Experiment, Impl: t.Impl, Params: t.Params, Phase: t.Phase,
			Noise: jsonNoise{t.Noise.Sigma, t.Noise.Measured, t.Noise.From, t.Noise.Pairs}, Steps: []jsonStep{}}
		for _, g := range t.Groups {
			jg := jsonGroup{Commit: g.Commit, Median: g.Median()}
			for _, p := range g.Points {
				jg.Runs = append(jg.Runs, jsonPoint{runJSON(p.Run), p.Value})
			}
			jt.Commits = append(jt.Commits, jg)
		}
		for _, p := range t.Apart {
			jt.Apart = append(jt.Apart, jsonPoint{runJSON(p.Run), p.Value})
		}
		for _, s := range t.Steps {
			jt.Steps = append(jt.Steps, jsonStep{Before: s.Before, After: s.After, Ratio: s.Ratio, Interval: [2]float64{s.Lo, s.Hi},
				BeforeMS: s.Step.Before, AfterMS: s.Step.After, RunsBefore: s.RunsBefore, RunsAfter: s.RunsAfter, Protocol: s.Protocol})
		}
		out.Timelines = append(out.Timelines, jt)
	}
	for _, c := range r.Claims {
		n, lo, hi, sigma := c.Spread()
		jc := jsonClaim{ID: c.ID, Kind: kindJSON(c.Kind), Scale: c.Scale, N: n, Lo: number(lo), Hi: number(hi), Spread: number(sigma)}
		if b := c.band(); b.Valid() {
			jc.Band = b.RangeText()
		}
		for _, cr := range c.Runs {
			jc.Runs = append(jc.Runs, jsonClaimRun{runJSON(cr.Run), string(cr.Verdict), string(cr.WithHistory), cr.HistoryWhy, number(cr.Figure), cr.Ours})
		}
		out.Claims = append(out.Claims, jc)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
