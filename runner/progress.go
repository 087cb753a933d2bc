package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// meter reports progress: the pass (passName), the cell in hand and its
// sample, the claims measured at the papers' sizes out of those this
// machine can measure, the cells recorded by status, the time elapsed and
// the ETA. On a terminal it keeps one live line, redrawn every second so
// a long cell shows it is alive. Elsewhere (a log, CI, nohup) it writes a
// line when a cell finishes, at most one every logEvery unless the cell
// itself took that long, and a line every logEvery while a long cell
// runs. At the end it says how many cells were measured, skipped and
// unavailable.
type meter struct {
	w        io.Writer
	terminal bool
	start    time.Time
	budget   time.Duration // 0: none
	mu       sync.Mutex
	claims   int            // claims this machine can measure at the papers' sizes
	already  int            // cells measured in the file before (--resume)
	status   map[string]int // cells recorded by this run, by status
	seen     map[string]string
	pass     string    // the pass in hand
	label    string    // "experiment impl params"
	since    time.Time // when the cell in hand started
	runs     int       // the runs of the cell in hand so far
	warmups  int       // its warm-ups, then
	most     int       // and its samples at most
	left     time.Duration
	atPaper  int       // claims measured at the papers' sizes so far
	lastLine time.Time // when the last log line was written
	stop     chan struct{}
	exited   chan struct{} // closed when the redrawing goroutine has returned
	once     sync.Once
}

// logEvery is the least interval between log lines off a terminal.
var logEvery = 10 * time.Second

func newMeter(w io.Writer, terminal bool, start time.Time, budget time.Duration, claims, already int) *meter {
	m := &meter{w: w, terminal: terminal, start: start, budget: budget, claims: claims, already: already, lastLine: start,
		status: map[string]int{}, seen: map[string]string{}, stop: make(chan struct{}), exited: make(chan struct{})}
	if w == nil {
		close(m.exited)
		return m
	}
	go func() {
		defer close(m.exited)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-t.C:
				m.tick()
			}
		}
	}()
	return m
}

// passName is how the progress names a pass: settling (a budgeted run's
// first pass over the claims' cells), the claims (a run without a
// budget), A/A, top-up, refine, the rest, side by side.
func passName(p pass, budgeted bool) string {
	switch p {
	case passAA:
		return "A/A"
	case passTopUp:
		return "top-up"
	case passRefine:
		return "refine"
	case passRest:
		return "the rest"
	case passSide:
		return "side by side"
	case passOuter:
		return "outer level"
	case passClaims:
		if budgeted {
			return "settling"
		}
	}
	return "claims"
}

// add counts records written, each cell once, by its latest status.
func (m *meter) add(recs []bench.Record) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range recs {
		k := r.Key()
		if old, ok := m.seen[k]; ok {
			m.status[old]--
		}
		m.seen[k] = r.Status
		m.status[r.Status]++
	}
}

// cell announces the cell now starting in pass name, with warmups
// warm-ups and at most most samples; left is the estimate of the cells
// from it on.
func (m *meter) cell(name string, c *cell, warmups, most int, left time.Duration, atPaper int) {
	m.mu.Lock()
	m.pass, m.label = name, c.exp.Name+" "+c.impl+" "+c.cs.Params.String()
	m.since, m.left, m.atPaper = time.Now(), left, atPaper
	m.runs, m.warmups, m.most = 0, warmups, most
	m.mu.Unlock()
	if m.terminal {
		m.draw()
	}
}

// ran counts a run of the cell in hand.
func (m *meter) ran() {
	m.mu.Lock()
	m.runs++
	m.mu.Unlock()
}

// sampleText is where the cell in hand is: "warm-up 1 of 1", "sample 2
// of 6".
func (m *meter) sampleText() string {
	k := m.runs + 1 // the run under way
	if k <= m.warmups {
		return fmt.Sprintf("warm-up %d of %d", k, m.warmups)
	}
	return fmt.Sprintf("sample %d of %d", min(k-m.warmups, m.most), m.most)
}

// claimsText is "claims measured 3 of 5" (at the papers' sizes).
func (m *meter) claimsText() string {
	return fmt.Sprintf("claims measured %d of %d", m.atPaper, m.claims)
}

// cellsText counts the cells recorded: "12 measured, 3 skipped, 40
// unavailable" (a status none has is left out; measured counts check
// failures too).
func (m *meter) cellsText() string {
	var parts []string
	if n := m.status[bench.StatusOK] + m.status[bench.StatusCheckFailed]; n > 0 || len(m.seen) == 0 {
		parts = append(parts, fmt.Sprintf("%d measured", n))
	}
	for _, s := range []struct{ status, word string }{
		{bench.StatusFailed, "failed"}, {bench.StatusSkipped, "skipped"}, {bench.StatusUnavailable, "unavailable"},
	} {
		if n := m.status[s.status]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, s.word))
		}
	}
	s := strings.Join(parts, ", ")
	if m.already > 0 {
		s += fmt.Sprintf(" (and %d measured before, in the file)", m.already)
	}
	return s
}

// finished reports a cell's end: off a terminal, a line when the last was
// logEvery ago or the cell itself took that long.
func (m *meter) finished(rec bench.Record, atPaper int) {
	if m.w == nil || m.terminal {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	m.atPaper = atPaper
	if now.Sub(m.lastLine) < logEvery && now.Sub(m.since) < logEvery {
		return
	}
	m.lastLine = now
	fmt.Fprintln(m.w, m.finishedLine(rec, now))
}

// finishedLine is the log's line for a cell that ended with rec.
func (m *meter) finishedLine(rec bench.Record, now time.Time) string {
	n := len(experiments.SamplesOf(&rec, bench.TotalPhase))
	return fmt.Sprintf("semibench: %s: %s %s in %s (%d sample(s)); %s; cells %s; elapsed %s, ETA %s",
		m.pass, m.label, rec.Status, now.Sub(m.since).Round(time.Millisecond), n, m.claimsText(), m.cellsText(),
		now.Sub(m.start).Round(time.Second), m.eta(now).Round(time.Second))
}

// eta is the time the run has left: the estimate less the time the cell in
// hand has run, never more than the budget left.
func (m *meter) eta(now time.Time) time.Duration {
	eta := max(0, m.left-now.Sub(m.since))
	if m.budget > 0 {
		eta = min(eta, max(0, m.budget-now.Sub(m.start)))
	}
	return eta
}

// tick redraws the live line, or off a terminal writes a line while a
// cell has run logEvery since the last one.
func (m *meter) tick() {
	if m.terminal {
		m.draw()
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	if m.label == "" || now.Sub(m.lastLine) < logEvery {
		return
	}
	m.lastLine = now
	fmt.Fprintln(m.w, m.runningLine(now))
}

// runningLine is the log's line while a long cell runs.
func (m *meter) runningLine(now time.Time) string {
	return fmt.Sprintf("semibench: %s: %s running for %s, %s; %s; elapsed %s, ETA %s",
		m.pass, m.label, now.Sub(m.since).Round(time.Second), m.sampleText(), m.claimsText(),
		now.Sub(m.start).Round(time.Second), m.eta(now).Round(time.Second))
}

// liveLine is the terminal's line.
func (m *meter) liveLine(now time.Time) string {
	return fmt.Sprintf("%s · %s · %s · %s · %s · elapsed %s, ETA %s", m.pass, m.label, m.sampleText(), m.claimsText(), m.cellsText(),
		now.Sub(m.start).Round(time.Second), m.eta(now).Round(time.Second))
}

func (m *meter) draw() {
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintf(m.w, "\r\033[K%s", m.liveLine(time.Now()))
}

// close ends the redrawing and waits for it to stop; it may be called more
// than once.
func (m *meter) close() {
	m.once.Do(func() { close(m.stop) })
	<-m.exited
}

// finish ends the redrawing and prints the closing line.
func (m *meter) finish(atPaper int) {
	m.close()
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.atPaper = atPaper
	prefix := ""
	if m.terminal {
		prefix = "\r\033[K"
	}
	fmt.Fprintln(m.w, prefix+m.finalLine(time.Now()))
}

// finalLine is the closing line.
func (m *meter) finalLine(now time.Time) string {
	return fmt.Sprintf("done in %s: %s; %d of %d claims measured at the papers' sizes (the report says which it decides)",
		now.Sub(m.start).Round(time.Millisecond), m.cellsText(), m.atPaper, m.claims)
}
