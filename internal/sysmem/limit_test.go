package sysmem

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHostLimitSources(t *testing.T) {
	dir := t.TempDir()
	old := cgroupRoot
	cgroupRoot = dir
	defer func() { cgroupRoot = old }()
	defer SetLimit(0)

	if l := HostLimit(); l.Source != "MemTotal" {
		t.Fatalf("no cgroup files: source %q, want MemTotal", l.Source)
	}
	write := func(name, v string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory.max", "max\n")
	if l := HostLimit(); l.Source != "MemTotal" {
		t.Fatalf("memory.max = max: source %q, want MemTotal", l.Source)
	}
	// A cgroup limit above MemTotal is trusted: such machines grow
	// MemTotal as memory is used.
	write("memory.max", "549755813888\n")
	write("memory.current", "137438953472\n")
	l := HostLimit()
	if l.Bytes != 512<<30 || l.Source != "cgroup v2 memory.max" {
		t.Fatalf("limit %+v, want 512 GiB from cgroup v2", l)
	}
	if f := Free(); f != 384<<30 {
		t.Fatalf("free %d, want 384 GiB", f)
	}
	SetLimit(1 << 40)
	if l := HostLimit(); l.Bytes != 1<<40 || l.Source != "flag" {
		t.Fatalf("limit %+v, want 1 TiB from the flag", l)
	}
}

func TestPeakRSS(t *testing.T) {
	if PeakRSS() == 0 {
		t.Skip("no getrusage figure here")
	}
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = 1
	}
	if PeakRSS() < 64<<20 {
		t.Fatalf("peak RSS %d after touching 64 MiB", PeakRSS())
	}
}

func TestParseSize(t *testing.T) {
	good := map[string]uint64{"1": 1, "512GiB": 512 << 30, "500GB": 500e9, "1.5KiB": 1536, "64 MiB": 64 << 20, "100B": 100, "1e3": 1000}
	for s, want := range good {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	bad := map[string]string{
		"NaNGiB": "NaN", "NaN": "NaN", "InfGiB": "infinity", "+Inf": "infinity", "-1GiB": "positive", "0": "positive", "0B": "positive",
		"1e-400GiB": "positive", "1e300TiB": "2^63", "9223372036854775808": "2^63", "0.5B": "whole number", "1.5": "whole number",
		"": "not a size", "GiB": "not a size", "12XB": "not a size", "0x10GiB": "not a size", "1_000": "not a size", "ten": "not a size",
	}
	for s, want := range bad {
		if got, err := ParseSize(s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSize(%q) = %d, %v; want an error saying %q", s, got, err, want)
		}
	}
}

// TestFreeSpentLimit: a limit at or below the memory in use leaves Spent,
// never 0 (which callers read as "unknown" and skip their check for).
func TestFreeSpentLimit(t *testing.T) {
	defer SetLimit(0)
	if Total() == 0 || Available() == 0 {
		t.Skip("no /proc/meminfo figures here")
	}
	SetLimit(1)
	if f := Free(); f != Spent {
		t.Fatalf("Free() under a 1-byte limit = %d, want Spent (%d)", f, Spent)
	}
}
