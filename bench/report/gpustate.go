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
// three of each kind, then how many more); empty when none did. Records
// without GPU state (CPU cells, files from before it was recorded) say
// nothing. Two kinds are told apart: a GPU slowed by temperature or a
// hardware limit ran slower than the card can, and the verdict should not
// rest on it; a GPU held at its power limit (or a clock setting) ran as the
// card runs under sustained load, and the note only says so.
func ThrottledNote(recs ...bench.Record) string {
	var hard, soft []string
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
		cell += " (" + strings.Join(why, ", ") + ")"
		if r.GPU.HardwareThrottled() {
			hard = append(hard, cell)
		} else {
			soft = append(soft, cell)
		}
	}
	var parts []string
	if len(hard) > 0 {
		parts = append(parts, "read from a GPU slowed by temperature or a hardware limit: "+listCells(hard)+
			"; those times are slower than the card can do, so this verdict should be rerun on a cool, healthy GPU")
	}
	if len(soft) > 0 {
		parts = append(parts, "read from a GPU held below its maximum clocks by its power limit or a clock setting: "+listCells(soft)+
			"; those times are what the card sustains under load, not its peak")
	}
	return strings.Join(parts, ". ")
}

// listCells joins at most three cells and says how many more there are.
func listCells(cells []string) string {
	if len(cells) <= 3 {
		return strings.Join(cells, "; ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(cells[:3], "; "), len(cells)-3)
}
