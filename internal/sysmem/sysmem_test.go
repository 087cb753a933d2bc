package sysmem

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestMeminfo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "meminfo")
	os.WriteFile(path, []byte("MemTotal:       24576000 kB\nMemFree: 1 kB\nMemAvailable:   1000 kB\nBroken:\n"), 0o644)
	cases := map[string]uint64{"MemTotal": 24576000 * 1024, "MemAvailable": 1000 * 1024, "Broken": 0, "Missing": 0}
	for key, want := range cases {
		if got := meminfo(path, key); got != want {
			t.Errorf("meminfo(%s) = %d, want %d", key, got, want)
		}
	}
	if meminfo(filepath.Join(t.TempDir(), "absent"), "MemTotal") != 0 {
		t.Error("a missing file must read as unknown (0)")
	}
}

func TestCPUTime(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no process CPU time here")
	}
	// Spin until 20 ms of CPU time show, for at most 10 s of wall time
	// (a loaded machine gives the test a share of a core).
	before := CPUTime()
	x := 0
	for start := time.Now(); CPUTime()-before < 20*time.Millisecond; x++ {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("10 s of spinning showed %v of CPU time (%d loops)", CPUTime()-before, x)
		}
	}
}
