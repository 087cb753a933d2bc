package runner

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
)

// meter reports progress. On a terminal it keeps one live line: the cell
// in hand and the estimated time of the cells left, redrawn every second
// so a long cell shows it is alive. Elsewhere (a log, CI, nohup) it writes
// a line when a cell finishes, at most one every logEvery unless the cell
// itself took that long, and a line every logEvery while a long cell runs.
type meter struct {
	w        io.Writer
	terminal bool
	start    time.Time
	budget   time.Duration // 0: none
	mu       sync.Mutex
	done     int           // records written
	total    int           // cells in the run, aliases included
	label    string        // "[k/n] experiment impl params"
	since    time.Time     // when the cell in hand started
	left     time.Duration // estimate of the cells from the one in hand on
	atPaper  int           // claims measured at the papers' sizes so far
	lastLine time.Time     // when the last log line was written
	stop     chan struct{}
	exited   chan struct{} // closed when the redrawing goroutine has returned
	once     sync.Once
}

// logEvery is the least interval between log lines off a terminal.
var logEvery = 10 * time.Second

func newMeter(w io.Writer, terminal bool, start time.Time, budget time.Duration, total int) *meter {
	m := &meter{w: w, terminal: terminal, start: start, budget: budget, total: total, lastLine: start,
		stop: make(chan struct{}), exited: make(chan struct{})}
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

// add counts n records written.
func (m *meter) add(n int) {
	m.mu.Lock()
	m.done += n
	m.mu.Unlock()
}

// cell announces the cell now starting.
func (m *meter) cell(c *cell, left time.Duration, atPaper int) {
	m.mu.Lock()
	m.label = fmt.Sprintf("[%d/%d] %s %s %s", m.done+1, m.total, c.exp.Name, c.impl, c.cs.Params.String())
	m.since, m.left, m.atPaper = time.Now(), left, atPaper
	m.mu.Unlock()
	if m.terminal {
		m.draw()
	}
}

// finished reports a cell's end: off a terminal, a line when the last was
// logEvery ago or the cell itself took that long.
func (m *meter) finished(c *cell, rec bench.Record, atPaper int) {
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
	fmt.Fprintf(m.w, "semibench: %d/%d cells, %d claim(s) measured at the papers' sizes, elapsed %s, ETA %s; last: %s %s %s %s (%s)\n",
		m.done, m.total, atPaper, now.Sub(m.start).Round(time.Second), m.eta(now).Round(time.Second),
		c.exp.Name, c.impl, c.cs.Params.String(), rec.Status, now.Sub(m.since).Round(time.Millisecond))
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
	fmt.Fprintf(m.w, "semibench: running %s for %s, elapsed %s, ETA %s, %d claim(s) measured at the papers' sizes\n",
		m.label, now.Sub(m.since).Round(time.Second), now.Sub(m.start).Round(time.Second), m.eta(now).Round(time.Second), m.atPaper)
}

func (m *meter) draw() {
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	fmt.Fprintf(m.w, "\r\033[K%s  elapsed %s  ETA %s  claims at paper sizes %d", m.label, now.Sub(m.start).Round(time.Second), m.eta(now).Round(time.Second), m.atPaper)
}

// close ends the redrawing and waits for it to stop; it may be called more
// than once.
func (m *meter) close() {
	m.once.Do(func() { close(m.stop) })
	<-m.exited
}

// done ends the redrawing and prints the closing line.
func (m *meter) finish(atPaper int) {
	m.close()
	if m.w == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	prefix := ""
	if m.terminal {
		prefix = "\r\033[K"
	}
	fmt.Fprintf(m.w, "%sdone: %d cells in %s, %d claim(s) with every cell they read at the papers' sizes measured (the report says which it decides)\n", prefix, m.done, time.Since(m.start).Round(time.Millisecond), atPaper)
}
