// Package sysmem reads the machine's memory figures, so every package that
// refuses an instance too large for memory asks the same question the same
// way.
package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Total returns the machine's memory in bytes (MemTotal), or 0 when unknown.
func Total() uint64 { return meminfo("/proc/meminfo", "MemTotal") }

// Available returns the bytes the kernel reports as available to new
// allocations without swapping (MemAvailable), or 0 when unknown (not Linux).
func Available() uint64 { return meminfo("/proc/meminfo", "MemAvailable") }

// meminfo returns the value of key in a /proc/meminfo-style file, in bytes.
func meminfo(path, key string) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || k != key {
			continue
		}
		fields := strings.Fields(v)
		if len(fields) == 0 {
			return 0
		}
		kb, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil {
			return 0
		}
		return kb * 1024
	}
	return 0
}
