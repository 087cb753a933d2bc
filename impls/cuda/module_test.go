package cuda

import (
	"slices"
	"strings"
	"testing"

	"github.com/semibench/semibench/kernels"
)

func TestArchCandidates(t *testing.T) {
	cases := []struct {
		major, minor, nvrtc int
		supported           []int
		want                []string
	}{
		{9, 0, 13, []int{75, 80, 86, 89, 90, 100, 120}, []string{"sm_90a", "sm_90", "compute_90"}},
		{9, 0, 11, []int{70, 75, 80, 86, 89, 90}, []string{"sm_90", "compute_90"}},
		{8, 6, 12, nil, []string{"sm_86", "compute_86"}},
		{10, 0, 11, []int{70, 75, 80, 86, 89, 90}, []string{"compute_90"}},
		{6, 0, 13, []int{75, 80}, nil},
	}
	for _, c := range cases {
		if got := ArchCandidates(c.major, c.minor, c.nvrtc, c.supported); !slices.Equal(got, c.want) {
			t.Errorf("ArchCandidates(%d.%d, NVRTC %d) = %v, want %v", c.major, c.minor, c.nvrtc, got, c.want)
		}
	}
}

func TestCacheKey(t *testing.T) {
	src, err := kernels.Get("kleene")
	if err != nil {
		t.Fatal(err)
	}
	a := cacheKey(src, "sm_90a", "12.8", kernels.Options("sm_90a"))
	b := cacheKey(src, "sm_90a", "13.0", kernels.Options("sm_90a"))
	c := cacheKey(kernels.Source{Name: "kleene", Code: src.Code + " "}, "sm_90a", "12.8", kernels.Options("sm_90a"))
	if a == b || a == c || !strings.HasSuffix(a, ".cubin") || !strings.HasPrefix(a, "kleene-") {
		t.Errorf("keys must differ by NVRTC version and source: %s %s %s", a, b, c)
	}
	if len(src.Headers) == 0 {
		t.Fatal("kleene.cu includes no header")
	}
	edited := src
	edited.Headers = slices.Clone(src.Headers)
	edited.Headers[0].Code += " "
	if d := cacheKey(edited, "sm_90a", "12.8", kernels.Options("sm_90a")); d == a {
		t.Errorf("editing %s must change the cache key %s", edited.Headers[0].Name, a)
	}
	if k := cacheKey(src, "compute_90", "12.8", nil); !strings.HasSuffix(k, ".ptx") {
		t.Errorf("PTX key %s", k)
	}
}
