package sysmem

import (
	"os"
	"path/filepath"
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
