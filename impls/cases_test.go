package impls

import (
	"strings"
	"sync"
	"testing"

	"github.com/semibench/semibench/impls/cuda"
)

// The case tables (*_cases_test.go): one table of small instances with
// known answers per problem, run against every implementation of its
// registry, as gonum's graph/path runs its shortest-path tables against
// every algorithm. A CUDA implementation is skipped, by name, where there
// is no device, so a GPU machine runs the same tables on it.

// hasDevice reports whether this machine has a CUDA device.
var hasDevice = sync.OnceValue(func() bool {
	n, err := cuda.DeviceCount()
	return err == nil && n > 0
})

// skipWithoutDevice skips t when the implementation name is a CUDA one and
// there is no device here.
func skipWithoutDevice(t *testing.T, name string) {
	t.Helper()
	if strings.HasPrefix(name, "cuda/") && !hasDevice() {
		t.Skipf("%s: no CUDA device here", name)
	}
}
