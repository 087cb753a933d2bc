//go:build !purego

package hostcost

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestHasAVX512: the assembly runs exactly where golang.org/x/sys/cpu
// reports AVX-512F (which includes the OS's support for its state).
func TestHasAVX512(t *testing.T) {
	if hasAVX512 != cpu.X86.HasAVX512F {
		t.Errorf("hasAVX512 = %v, but this CPU reports AVX-512F %v", hasAVX512, cpu.X86.HasAVX512F)
	}
}
