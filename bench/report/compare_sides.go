package report

import (
	"slices"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/internal/stats"
)

// Side is where a cell's time goes: the GPU's work, the copies across the
// host link, or the host.
type Side int

// The sides of a comparison's summary.
const (
	// Device is a GPU cell's (cuda/*) total without the copies inside it.
	Device Side = iota
	// Transfers are a GPU cell's copies, h2d and d2h, wherever they lie.
	Transfers
	// Host is a CPU cell's total, and a GPU cell's end to end outside its
	// total and its copies (the host's part of the solve).
	Host
)

// Sides lists the sides in the summary's order.
var Sides = []Side{Device, Transfers, Host}

func (s Side) String() string {
	switch s {
	case Device:
		return "device"
	case Transfers:
		return "transfers"
	}
	return "host"
}

// copyPhase reports whether a phase is a copy across the host link.
func copyPhase(name string) bool { return name == "h2d" || name == "d2h" }

// gpuImpl reports whether an implementation runs on the GPU (cuda/*).
func gpuImpl(impl string) bool { return strings.HasPrefix(impl, "cuda/") }

// peerImpl reports whether an implementation is a published code measured
// beside ours (peer/*).
func peerImpl(impl string) bool { return strings.HasPrefix(impl, "peer/") }

// sideTime is one side of one cell: its median time in ms and, where the
// record keeps them, its per-repetition samples.
type sideTime struct {
	ms      float64
	samples []float64
}

// sideTimes splits a record's time by side (Side). A record that did not
// run and pass its check, reused another cell's work, or is a peer's
// gives none; a side whose time is not positive is left out.
func sideTimes(r *bench.Record) map[Side]sideTime {
	if r == nil || r.Status != bench.StatusOK || r.ReusedFrom != "" || peerImpl(r.Impl) {
		return nil
	}
	total := r.Phase(bench.TotalPhase)
	if total == nil {
		return nil
	}
	out := map[Side]sideTime{}
	put := func(s Side, t sideTime) {
		if t.ms > 0 {
			out[s] = t
		}
	}
	if !gpuImpl(r.Impl) {
		put(Host, phaseTime(total))
		return out
	}
	var inTotal, outside, copies []*bench.Phase
	for i := range r.Phases {
		p := &r.Phases[i]
		if !copyPhase(p.Name) {
			continue
		}
		copies = append(copies, p)
		if p.Scope == bench.ScopeTotal {
			inTotal = append(inTotal, p)
		} else {
			outside = append(outside, p)
		}
	}
	put(Device, combine(total, nil, inTotal))
	if len(copies) > 0 {
		put(Transfers, combine(nil, nil, copies))
	}
	if e2e := r.Phase(bench.EndToEndPhase); e2e != nil && e2e.MedianMS > total.MedianMS {
		put(Host, combine(e2e, total, outside))
	}
	return out
}

// phaseTime is a phase's median and samples.
func phaseTime(p *bench.Phase) sideTime {
	return sideTime{ms: median(p), samples: p.SamplesMS}
}

// median is a phase's median, or its statistic where the record has no
// median (a paper's figure).
func median(p *bench.Phase) float64 {
	if p.MedianMS != 0 {
		return p.MedianMS
	}
	return p.StatMS
}

// combine is base minus sub minus the parts when base is set, else the
// sum of the parts: per repetition where every phase has a sample of it
// (their median then the side's time), else from the medians.
func combine(base, sub *bench.Phase, parts []*bench.Phase) sideTime {
	sign := 1.0
	var all []*bench.Phase
	if base != nil {
		sign = -1
		all = append(all, base)
	}
	if sub != nil {
		all = append(all, sub)
	}
	all = append(all, parts...)
	n := len(all[0].SamplesMS)
	aligned := n > 0
	for _, p := range all {
		aligned = aligned && len(p.SamplesMS) == n
	}
	term := func(get func(*bench.Phase) float64) float64 {
		v := 0.0
		if base != nil {
			v = get(base)
		}
		if sub != nil {
			v -= get(sub)
		}
		for _, p := range parts {
			v += sign * get(p)
		}
		return v
	}
	if !aligned {
		return sideTime{ms: term(median)}
	}
	samples := make([]float64, n)
	for i := range n {
		samples[i] = term(func(p *bench.Phase) float64 { return p.SamplesMS[i] })
	}
	return sideTime{ms: stats.Median(slices.Clone(samples)), samples: samples}
}
