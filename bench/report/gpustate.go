package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/semibench/semibench/bench"
)

// GPUNote renders a record's GPU state as one short note: the SM clock
// (its range over the repetitions where they were read), the temperature
// and the power at the end of the cell (the mean over the cell where the
// energy counter gives it), then what throttled it, e.g.
//
//	SM 1980 MHz, 62 °C, 310 W; throttled: SW power cap at end
//
// One part per device when the cell used several ("GPU 0: ...; GPU 1:
// ..."). Empty for a record without GPU state.
func GPUNote(r *bench.Record) string {
	if r == nil || r.GPU == nil {
		return ""
	}
	c := r.GPU
	states := c.End
	if len(states) == 0 {
		states = c.Start
	}
	var parts []string
	for _, s := range states {
		var start *bench.GPUState
		for i := range c.Start {
			if c.Start[i].Device == s.Device {
				start = &c.Start[i]
			}
		}
		p := deviceNote(s, start, c.Reps, len(states) == 1)
		if len(states) > 1 {
			p = fmt.Sprintf("GPU %d: %s", s.Device, p)
		}
		parts = append(parts, p)
	}
	note := strings.Join(parts, "; ")
	if why := c.ThrottleReasons(); len(why) > 0 {
		note += "; throttled: " + strings.Join(why, ", ")
	}
	return note
}

// deviceNote is one device's clocks, temperature and power; reps give the
// clock range when the cell has one device.
func deviceNote(s bench.GPUState, start *bench.GPUState, reps []bench.GPURep, single bool) string {
	var f []string
	lo, hi := s.SMClockMHz, s.SMClockMHz
	if single {
		for _, r := range reps {
			if r.SMClockMHz > 0 {
				if lo == 0 || r.SMClockMHz < lo {
					lo = r.SMClockMHz
				}
				hi = max(hi, r.SMClockMHz)
			}
		}
	}
	switch {
	case lo > 0 && lo != hi:
		f = append(f, fmt.Sprintf("SM %d-%d MHz", lo, hi))
	case hi > 0:
		f = append(f, fmt.Sprintf("SM %d MHz", hi))
	}
	if s.TemperatureC > 0 {
		f = append(f, fmt.Sprintf("%d °C", s.TemperatureC))
	}
	avg := math.NaN()
	if start != nil {
		avg = bench.AveragePowerW(*start, s)
	}
	switch {
	case !math.IsNaN(avg):
		f = append(f, fmt.Sprintf("%.0f W mean", avg))
	case s.PowerW > 0:
		f = append(f, fmt.Sprintf("%.0f W", s.PowerW))
	}
	if len(f) == 0 {
		if s.Error != "" {
			return "state not read (" + s.Error + ")"
		}
		return "state not read"
	}
	return strings.Join(f, ", ")
}

// ThrottledNote is what a verdict read from these records must say when any
// of them ran on a throttled GPU, naming the cells and the reasons (at most
// three, then how many more); empty when none did. Records without GPU
// state (CPU cells, files from before it was recorded) say nothing.
func ThrottledNote(recs ...bench.Record) string {
	var cells []string
	for i := range recs {
		r := &recs[i]
		why := r.GPU.ThrottleReasons()
		if len(why) == 0 {
			continue
		}
		cell := r.Impl
		if p := r.Params.String(); p != "" {
			cell += " at " + p
		}
		cells = append(cells, cell+" ("+strings.Join(why, ", ")+")")
	}
	if len(cells) == 0 {
		return ""
	}
	more := ""
	if len(cells) > 3 {
		more = fmt.Sprintf(" and %d more", len(cells)-3)
		cells = cells[:3]
	}
	return fmt.Sprintf("read from a throttled GPU: %s%s; the GPU ran below its full clocks there, so those times may be slower than the card can do",
		strings.Join(cells, "; "), more)
}
