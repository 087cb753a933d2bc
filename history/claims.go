package history

import (
	"cmp"
	"context"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/gitrepo"
)

// claimsKind is the cache folder of judged claims, under the build's key:
// a claim's verdict is the judging code's, so another build judges again.
const claimsKind = "claims-v1"

// Judged is a claim as one run judged it alone (experiments.JudgeFile).
type Judged struct {
	ID, Experiment, Paper, Where string
	Verdict                      experiments.Verdict
	// Figure is the claim's number in the run (NaN when it has none),
	// Band how its rule reads it.
	Figure       float64
	Band         experiments.Band
	Ours, Reason string
}

// Judge judges the claims of each run that has no judgement yet, alone,
// as `semibench claims` does: from the cache (by blob and this build),
// else from its whole file, read again (the records kept in memory have
// no samples, which the settle rule reads), as many at once as there are
// CPUs.
func (h *History) Judge(ctx context.Context, runs []*Run, progress io.Writer) error {
	var todo []version
	byBlob := map[string][]*Run{}
	for _, r := range runs {
		if r.Claims != nil || r.src.blob == "" {
			continue
		}
		var js []Judged
		if h.cache != nil && h.cache.build != "" && h.cache.get(claimsKind, h.cache.build, r.src.blob, &js) {
			r.Claims = nonNilJudged(js)
			h.ClaimsCached++
			continue
		}
		if byBlob[r.src.blob] == nil {
			todo = append(todo, r.src)
		}
		byBlob[r.src.blob] = append(byBlob[r.src.blob], r)
	}
	h.ClaimsJudged += len(todo)
	var mu sync.Mutex
	return h.each(ctx, todo, progress, "history: judged the claims of %d of %d runs", func(blob string, data []byte) {
		js := judgeData(data)
		if h.cache != nil && h.cache.build != "" {
			h.cache.put(claimsKind, h.cache.build, blob, js)
		}
		mu.Lock()
		defer mu.Unlock()
		for _, r := range byBlob[blob] {
			r.Claims = nonNilJudged(js)
		}
	})
}

// judgeData judges a result file's bytes alone; none for a file that
// cannot be read (its head said so already).
func judgeData(data []byte) []Judged {
	raw, err := gitrepo.Gunzip(data, maxInflate)
	if err != nil {
		return nil
	}
	f, err := bench.Decode(raw)
	if err != nil {
		return nil
	}
	var out []Judged
	for _, c := range experiments.JudgeFile(f) {
		out = append(out, Judged{ID: c.ID, Experiment: c.Experiment, Paper: c.Paper, Where: c.Where, Verdict: c.Verdict,
			Figure: c.Figure, Band: c.Band, Ours: c.Ours, Reason: c.Reason})
	}
	return out
}

func nonNilJudged(js []Judged) []Judged {
	if js == nil {
		return []Judged{}
	}
	return js
}

// ClaimRun is a claim in one run.
type ClaimRun struct {
	Run *Run
	Judged
	// WithHistory is the run's verdict judged with its kind's other runs
	// (experiments.History.Apply: the class they give together), and
	// HistoryWhy its reason; Verdict where history does not apply.
	WithHistory experiments.Verdict
	HistoryWhy  string
}

// ClaimHistory is a claim over the runs of one machine kind at one scale
// that decided it.
type ClaimHistory struct {
	ID    string
	Kind  Kind
	Scale string
	// Runs are the runs that decided the claim (a verdict other than not
	// run or not testable): those on the timeline in commit order, then
	// those apart by date.
	Runs []ClaimRun
}

// Spread is the claim's figures over its runs on the timeline (runs
// apart, whose code is no commit's, left out): how many, the least and
// the greatest, and the relative spread between runs (the robust
// standard deviation of the log figures: 1.4826 times their median
// absolute deviation). n is 0 for a claim without figures.
func (c *ClaimHistory) Spread() (n int, lo, hi, sigma float64) {
	var logs []float64
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, r := range c.Runs {
		if r.Run.Apart != "" || math.IsNaN(r.Figure) || !(r.Figure > 0) {
			continue
		}
		logs = append(logs, math.Log(r.Figure))
		lo, hi = min(lo, r.Figure), max(hi, r.Figure)
	}
	if len(logs) == 0 {
		return 0, math.NaN(), math.NaN(), math.NaN()
	}
	m := median(logs)
	dev := make([]float64, len(logs))
	for i, l := range logs {
		dev[i] = math.Abs(l - m)
	}
	return len(logs), lo, hi, 1.4826 * median(dev)
}

// Classes counts the runs by verdict judged alone, in
// experiments.Verdicts' order; WithHistory by verdict judged with history.
func (c *ClaimHistory) Classes() []VerdictCount {
	return countVerdicts(c.Runs, func(r ClaimRun) experiments.Verdict { return r.Verdict })
}

// WithHistory counts the runs by verdict judged with history.
func (c *ClaimHistory) WithHistory() []VerdictCount {
	return countVerdicts(c.Runs, func(r ClaimRun) experiments.Verdict { return r.WithHistory })
}

func countVerdicts(runs []ClaimRun, of func(ClaimRun) experiments.Verdict) []VerdictCount {
	count := map[experiments.Verdict]int{}
	for _, r := range runs {
		count[of(r)]++
	}
	var out []VerdictCount
	for _, v := range experiments.Verdicts {
		if count[v] > 0 {
			out = append(out, VerdictCount{v, count[v]})
		}
	}
	return out
}

// VerdictCount is how many runs gave a verdict.
type VerdictCount struct {
	Verdict experiments.Verdict
	Runs    int
}

// ClaimQuery selects claims and runs.
type ClaimQuery struct {
	// IDs are the claims asked (experiments.Claim.ID), or experiments
	// whose claims are all asked; none asks every claim.
	IDs []string
	// Machine keeps the runs of machines of this label; "" keeps all.
	Machine string
	// Scale keeps the runs of this scale; "" keeps all.
	Scale string
}

// wants reports whether q asks for claim id (of experiment exp).
func (q ClaimQuery) wants(id, exp string) bool {
	return len(q.IDs) == 0 || slices.Contains(q.IDs, id) || slices.Contains(q.IDs, exp)
}

// wantsRun reports whether q may ask for anything of run r: its machine
// and scale, and an experiment of the claims asked among its records.
func (q ClaimQuery) wantsRun(r *Run) bool {
	if q.Machine != "" && r.Kind.Label != q.Machine || q.Scale != "" && r.Scale() != q.Scale {
		return false
	}
	if len(q.IDs) == 0 {
		return true
	}
	for _, id := range q.IDs {
		exp, _, _ := strings.Cut(id, "#")
		if slices.Contains(r.Experiments, exp) {
			return true
		}
	}
	return false
}

// Claims judges the runs q asks for (Judge: only those of its machine and
// scale that hold an experiment of a claim asked) and returns each
// claim's history per machine kind and scale, ordered by kind, scale and
// claim.
func (h *History) Claims(ctx context.Context, q ClaimQuery, progress io.Writer) ([]*ClaimHistory, error) {
	return h.claimsOf(ctx, h.runsWhere(q.wantsRun), q, progress)
}

// claimsOf is Claims over runs.
func (h *History) claimsOf(ctx context.Context, runs []*Run, q ClaimQuery, progress io.Writer) ([]*ClaimHistory, error) {
	if err := h.Judge(ctx, runs, progress); err != nil {
		return nil, err
	}
	type key struct {
		kind      Kind
		scale, id string
	}
	byKey := map[key]*ClaimHistory{}
	for _, r := range runs {
		if !q.wantsRun(r) {
			continue
		}
		for _, j := range r.Claims {
			if !q.wants(j.ID, j.Experiment) || !j.Verdict.Decided() {
				continue
			}
			k := key{r.Kind, r.Scale(), j.ID}
			c := byKey[k]
			if c == nil {
				c = &ClaimHistory{ID: j.ID, Kind: r.Kind, Scale: r.Scale()}
				byKey[k] = c
			}
			c.Runs = append(c.Runs, ClaimRun{Run: r, Judged: j})
		}
	}
	pasts := map[key]*Past{}
	for _, c := range byKey {
		k := key{c.Kind, c.Scale, ""}
		if pasts[k] == nil {
			var same []*Run
			for _, r := range runs {
				if r.Kind == c.Kind && r.Scale() == c.Scale {
					same = append(same, r)
				}
			}
			pasts[k] = pastOf(c.Kind, c.Scale, same)
		}
		for i := range c.Runs {
			cr := &c.Runs[i]
			commit := cmp.Or(cr.Run.Commit, cr.Run.Header.Semibench.Commit)
			claim := experiments.Claim{ID: cr.ID, Experiment: cr.Experiment, Paper: cr.Paper, Where: cr.Where, Verdict: cr.Verdict,
				Figure: cr.Figure, Band: cr.Band, Ours: cr.Ours, Reason: cr.Reason}
			with := pasts[k].For(cr.Run.Where, commit, cr.Run.Date()).Apply(claim)
			cr.WithHistory = with.Verdict
			if with.Level == experiments.LevelHistory {
				cr.HistoryWhy = with.Reason
			}
		}
	}
	out := make([]*ClaimHistory, 0, len(byKey))
	for _, c := range byKey {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *ClaimHistory) int {
		return cmp.Or(strings.Compare(a.Kind.String(), b.Kind.String()), strings.Compare(a.Scale, b.Scale), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}
