package nvml

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/semibench/semibench/bench"
)

// smiCommand is the program asked when NVML cannot be loaded.
var smiCommand = "nvidia-smi"

// smiTimeout bounds one nvidia-smi query.
const smiTimeout = 10 * time.Second

// smiFields are the --query-gpu fields, in the order parseSMI reads them.
// The reasons field was named clocks_throttle_reasons.active before R535;
// querySMI falls back to that name.
var smiFields = []string{
	"pci.bus_id", "clocks.sm", "clocks.max.sm", "clocks.mem", "temperature.gpu",
	"power.draw", "enforced.power.limit", "pstate", "clocks_event_reasons.active",
}

const smiOldReasons = "clocks_throttle_reasons.active"

// readSMI takes one reading of a GPU with nvidia-smi's query mode: the GPU
// of the PCI address id when known, else of index ordinal (nvidia-smi's
// numbering, which is CUDA's only with CUDA_DEVICE_ORDER=PCI_BUS_ID and no
// CUDA_VISIBLE_DEVICES).
func readSMI(ordinal int, id string) (bench.GPUState, error) {
	sel := id
	if sel == "" {
		sel = strconv.Itoa(ordinal)
	}
	out, err := querySMI(sel, smiFields)
	if err != nil && strings.Contains(err.Error(), "clocks_event_reasons") {
		fields := append(append([]string(nil), smiFields[:len(smiFields)-1]...), smiOldReasons)
		out, err = querySMI(sel, fields)
	}
	if err != nil {
		return bench.GPUState{Device: ordinal, Source: "nvidia-smi"}, err
	}
	s, err := parseSMI(out)
	s.Device = ordinal
	return s, err
}

// querySMI runs nvidia-smi for one GPU and returns its CSV line.
func querySMI(sel string, fields []string) (string, error) {
	path, err := exec.LookPath(smiCommand)
	if err != nil {
		return "", fmt.Errorf("%s: %w", smiCommand, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), smiTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--query-gpu="+strings.Join(fields, ","), "--format=csv,noheader,nounits", "-i", sel)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String() + " " + stdout.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("%s -i %s: %s", smiCommand, sel, firstLine(msg))
	}
	return strings.TrimSpace(stdout.String()), nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// parseSMI reads one line of nvidia-smi's CSV answer in smiFields' order.
// "[N/A]" and "[Not Supported]" leave a field empty.
func parseSMI(line string) (bench.GPUState, error) {
	s := bench.GPUState{Source: "nvidia-smi", At: time.Now()}
	line = firstLine(strings.TrimSpace(line))
	f := strings.Split(line, ",")
	if len(f) != len(smiFields) {
		return s, fmt.Errorf("%s: %d fields in %q, want %d", smiCommand, len(f), line, len(smiFields))
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
		if strings.HasPrefix(f[i], "[") || f[i] == "N/A" {
			f[i] = ""
		}
	}
	var bad []string
	num := func(k int) float64 {
		if f[k] == "" {
			return 0
		}
		v, err := strconv.ParseFloat(f[k], 64)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s %q", smiFields[k], f[k]))
			return 0
		}
		return v
	}
	s.PCIBusID = f[0]
	s.SMClockMHz = int(num(1))
	s.MaxSMClockMHz = int(num(2))
	s.MemClockMHz = int(num(3))
	s.TemperatureC = int(num(4))
	s.PowerW = num(5)
	s.PowerLimitW = num(6)
	s.PState = f[7]
	if r := f[8]; r != "" {
		m, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(r), "0x"), 16, 64)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s %q", smiFields[8], r))
		} else {
			ev := bench.ClockEvents(m)
			s.ClockEvents = &ev
		}
	}
	if len(bad) > 0 {
		s.Error = smiCommand + ": unreadable " + strings.Join(bad, ", ")
	}
	return s, nil
}
