package sysmem

import (
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
// has in use. 0 when unknown.
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
		return 0
	}
	return l.Bytes - used
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
