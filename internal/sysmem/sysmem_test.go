package sysmem

import (
	"os"
	"path/filepath"
	"testing"
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
