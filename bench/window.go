package bench

import (
	"maps"
	"slices"
	"strings"
)

// Window is the part of one run of a cell that its paper times, where that
// part is a set of the cell's phases and not its whole run: treefix's
// vectorial Rootfix is timed by the paper as its write, scan and read,
// while the GPU cell's total also holds the Euler tour it builds first.
// Work is the least work of those phases alone, counted as the cell's
// whole Work is (Work's doc), with the host link's bytes only where a
// copy is one of the phases. A cell declares at most one window.
type Window struct {
	// Phases are the names of the phases the window sums, in the order
	// the run meets them; a phase name holds neither "+" nor ".".
	Phases []string
	Work   Work
}

// MetricWindowPrefix begins the record metrics that carry a Window
// (Record.Metrics): one key per non-zero count of its Work, the prefix,
// the phases joined by "+", a dot and the count's name as the work.*
// keys name it: "work.window.write+scan+read.dram_bytes" for the DRAM
// bytes of the window of the phases write, scan and read.
const MetricWindowPrefix = "work.window."

// Label names the window by its phases, "write+scan+read".
func (w Window) Label() string { return strings.Join(w.Phases, "+") }

// valid reports whether w has phases, every name fit for a metric key,
// and some work.
func (w Window) valid() bool {
	if len(w.Phases) == 0 || w.Work.IsZero() {
		return false
	}
	for _, p := range w.Phases {
		if p == "" || strings.ContainsAny(p, "+.") {
			return false
		}
	}
	return true
}

// SetMetrics writes w into m under the work.window.* keys, after deleting
// every work.window.* key m held, so that m carries w and no older window;
// a window without phases, with a phase name holding "+" or ".", or
// without work leaves m with no window.
func (w Window) SetMetrics(m map[string]float64) {
	for k := range m {
		if strings.HasPrefix(k, MetricWindowPrefix) {
			delete(m, k)
		}
	}
	if !w.valid() {
		return
	}
	prefix := MetricWindowPrefix + w.Label() + "."
	for _, f := range w.Work.fields() {
		if *f.v != 0 {
			m[prefix+strings.TrimPrefix(f.key, "work.")] = *f.v
		}
	}
}

// WindowFromMetrics reads a Window from a record's metrics; ok is false
// when no work.window.* key is present (a record written before windows
// were declared, or one of a cell that declares none), or when the keys
// name more than one window, or a count of a name the work.* keys do not
// have.
func WindowFromMetrics(m map[string]float64) (w Window, ok bool) {
	label := ""
	for _, k := range slices.Sorted(maps.Keys(m)) {
		rest, has := strings.CutPrefix(k, MetricWindowPrefix)
		if !has {
			continue
		}
		dot := strings.LastIndexByte(rest, '.')
		if dot <= 0 || (label != "" && rest[:dot] != label) {
			return Window{}, false
		}
		label = rest[:dot]
		found := false
		for _, f := range w.Work.fields() {
			if f.key == "work."+rest[dot+1:] {
				*f.v, found = m[k], true
			}
		}
		if !found {
			return Window{}, false
		}
	}
	if label == "" {
		return Window{}, false
	}
	w.Phases = strings.Split(label, "+")
	return w, w.valid()
}

// WindowMS is the time of window w in record r: the sum of the medians
// of its phases (a phase's StatMS where the record keeps no median, as a
// paper's table does); ok is false when r lacks one of the phases or a
// phase's time is not positive.
func (w Window) WindowMS(r *Record) (ms float64, ok bool) {
	if r == nil || len(w.Phases) == 0 {
		return 0, false
	}
	for _, name := range w.Phases {
		p := r.Phase(name)
		if p == nil {
			return 0, false
		}
		v := p.MedianMS
		if v == 0 {
			v = p.StatMS
		}
		if v <= 0 {
			return 0, false
		}
		ms += v
	}
	return ms, true
}
