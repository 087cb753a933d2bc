package sysmem

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Limit is the host memory this process may fill, and where the figure
// comes from: the user (a flag), the cgroup's limit, or MemTotal. Some
// machines hand out host memory as it is used: their MemTotal starts low
// and grows, while the cgroup's limit holds from the start, so a cgroup
// limit, when set, is trusted over MemTotal.
type Limit struct {
	Bytes  uint64
	Source string // "flag", "cgroup v2 memory.max", "cgroup v1 memory.limit_in_bytes" or "MemTotal"
}

// override is the limit set by SetLimit; 0 when none.
var override atomic.Uint64

// SetLimit makes b the host memory limit (0 restores the machine's own).
func SetLimit(b uint64) { override.Store(b) }

// cgroupRoot is where the cgroup files are read (a variable for tests).
var cgroupRoot = "/sys/fs/cgroup"

// HostLimit returns the memory limit in force.
func HostLimit() Limit {
	if b := override.Load(); b > 0 {
		return Limit{b, "flag"}
	}
	if b, ok := readBytes(cgroupRoot + "/memory.max"); ok {
		return Limit{b, "cgroup v2 memory.max"}
	}
	if b, ok := readBytes(cgroupRoot + "/memory/memory.limit_in_bytes"); ok && b < 1<<62 {
		return Limit{b, "cgroup v1 memory.limit_in_bytes"}
	}
	return Limit{Total(), "MemTotal"}
}

// Free returns the bytes a new allocation may take under the limit in
// force: the cgroup's limit less its current use, or MemAvailable under
// MemTotal; under a limit given by flag, that limit less what the machine
// has in use. 0 only when unknown: a limit that is spent (the use at or
// above it) leaves Spent, so that callers, who skip their check on 0,
// still refuse every allocation.
func Free() uint64 {
	l := HostLimit()
	var used uint64
	switch l.Source {
	case "MemTotal":
		return Available()
	case "cgroup v2 memory.max":
		used, _ = readBytes(cgroupRoot + "/memory.current")
	case "cgroup v1 memory.limit_in_bytes":
		used, _ = readBytes(cgroupRoot + "/memory/memory.usage_in_bytes")
	default:
		if t, a := Total(), Available(); t > a {
			used = t - a
		}
	}
	if used >= l.Bytes {
		return Spent
	}
	return l.Bytes - used
}

// Spent is what Free returns under a limit already reached: one byte,
// which no allocation fits in.
const Spent = 1

// ParseSize reads a memory size: a byte count ("1073741824") or a number
// with a unit, "512GiB", "500GB", "1.5TiB", "64MiB", "8KB", "100B". It
// refuses anything else with an error saying why: no number, NaN, an
// infinity, zero or a negative size, a fraction of a byte, more than
// 2^63 bytes.
func ParseSize(s string) (uint64, error) {
	units := []struct {
		suffix string
		mult   float64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}
	num, mult := s, 1.0
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, mult = strings.TrimSpace(n), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	b := v * mult
	switch {
	case err == nil && math.IsNaN(v):
		return 0, fmt.Errorf("%q: NaN is not a number of bytes", s)
	case err == nil && math.IsInf(v, 0):
		return 0, fmt.Errorf("%q: an infinity is not a size", s)
	case err != nil && !errors.Is(err, strconv.ErrRange), num == "", strings.ContainsAny(num, "xX_"):
		return 0, fmt.Errorf("not a size: %q (want a byte count or a number with a unit, e.g. 512GiB, 500GB, 64MiB)", s)
	case math.IsInf(b, 0) || b >= 1<<63:
		return 0, fmt.Errorf("%q is more than 2^63 bytes", s)
	case b <= 0:
		return 0, fmt.Errorf("%q: a size must be positive", s)
	case b != math.Trunc(b):
		return 0, fmt.Errorf("%q is %g bytes: not a whole number of bytes", s, b)
	}
	return uint64(b), nil
}

// readBytes reads a cgroup file holding a byte count; "max" or a missing
// or malformed file gives false.
func readBytes(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}
