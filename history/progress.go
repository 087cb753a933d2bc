package history

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progressDelay is how long work goes on before progress is shown, and
// progressEvery the least time between two lines.
const (
	progressDelay = 1500 * time.Millisecond
	progressEvery = 5 * time.Second
)

// progress shows "done of total" on w while work takes longer than
// progressDelay: a line every progressEvery at most, and a last one at the end when
// any was shown.
type progress struct {
	w      io.Writer
	format string
	total  int
	start  time.Time
	mu     sync.Mutex
	done   int
	last   time.Time
	shown  bool
}

func startProgress(w io.Writer, format string, total int) *progress {
	return &progress{w: w, format: format, total: total, start: time.Now()}
}

// set records that n of the total are done, showing a line when due.
func (p *progress) set(n int) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = n
	now := time.Now()
	if now.Sub(p.start) < progressDelay || now.Sub(p.last) < progressEvery {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.w, p.format+"\n", n, p.total)
}

// stop shows the last line, with the time taken, when any was shown.
func (p *progress) stop() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintf(p.w, p.format+" (%.1f s)\n", p.done, p.total, time.Since(p.start).Seconds())
	}
}
