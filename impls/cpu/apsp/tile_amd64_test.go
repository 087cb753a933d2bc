//go:build amd64 && !purego

package apsp

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// The tile kernel runs exactly where the CPU reports both AVX and AVX2
// (each including the OS's YMM support), as the hand-written CPUID test
// it replaces decided.
func TestUseAVX2(t *testing.T) {
	for _, tc := range []struct{ avx, avx2, want bool }{
		{false, false, false}, {true, false, false}, {false, true, false}, {true, true, true},
	} {
		if got := useAVX2(tc.avx, tc.avx2); got != tc.want {
			t.Errorf("useAVX2(AVX %v, AVX2 %v) = %v, want %v", tc.avx, tc.avx2, got, tc.want)
		}
	}
	if want := cpu.X86.HasAVX && cpu.X86.HasAVX2; hasAVX2 != want {
		t.Errorf("hasAVX2 = %v, but this CPU reports AVX %v and AVX2 %v", hasAVX2, cpu.X86.HasAVX, cpu.X86.HasAVX2)
	}
}
