package experiments

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/lap"
)

// repeatedSegment returns the first ": "-separated segment of msg equal
// (case-insensitively) to the one before it, or "".
func repeatedSegment(msg string) string {
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if strings.EqualFold(parts[i], parts[i-1]) {
			return parts[i]
		}
	}
	return ""
}

// TestAvailableMessage: on a machine without CUDA, Available's error
// matches both sentinels, says "unavailable" once, repeats no prefix, and,
// where libcuda is missing, names the library with dlerror's own text.
func TestAvailableMessage(t *testing.T) {
	if Available("cpu/paper") != nil {
		t.Fatal("a CPU implementation is always available")
	}
	err := Available("cuda/fast")
	if err == nil {
		t.Skip("a CUDA device is present")
	}
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, impls.ErrUnavailable) {
		t.Fatalf("%v must match experiments.ErrUnavailable and impls.ErrUnavailable", err)
	}
	msg := err.Error()
	if n := strings.Count(strings.ToLower(msg), "unavailable"); n != 1 {
		t.Errorf("%q says unavailable %d times", msg, n)
	}
	if seg := repeatedSegment(msg); seg != "" {
		t.Errorf("%q repeats %q", msg, seg)
	}
	if strings.Contains(msg, "cannot load") {
		for _, want := range []string{"libcuda.so.1: ", "cannot open shared object file"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%q does not carry %q", msg, want)
			}
		}
		if strings.Contains(msg, "(;") || strings.Contains(msg, "; ;") {
			t.Errorf("%q has an empty dlerror text", msg)
		}
	}
	note := UnavailableNote("cuda/fast", msg)
	if strings.Count(note, "cuda/fast") != 1 || strings.Count(strings.ToLower(note), "unavailable") != 1 {
		t.Errorf("note %q must name cuda/fast and say unavailable once", note)
	}
}

func TestMarkUnavailable(t *testing.T) {
	inner := fmt.Errorf("cuda/paper: %w: no CUDA device", impls.ErrUnavailable)
	err := MarkUnavailable(inner)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, impls.ErrUnavailable) || err.Error() != inner.Error() {
		t.Errorf("markUnavailable(%q) = %q: want both sentinels and the message unchanged", inner, err)
	}
	if MarkUnavailable(err) != err {
		t.Error("an error already marked passes unchanged")
	}
	other := errors.New("cuda/paper: out of memory")
	if MarkUnavailable(other) != other || MarkUnavailable(nil) != nil {
		t.Error("other errors and nil pass unchanged")
	}
}

func TestUnavailableNote(t *testing.T) {
	lib := "cannot load the CUDA driver library: libcuda.so.1: cannot open shared object file: No such file or directory"
	for _, c := range []struct{ impl, msg, want string }{
		{"cuda/fast", "CUDA unavailable: " + lib, "cuda/fast: CUDA unavailable: " + lib},
		{"cuda/fast", "cuda/fast: CUDA unavailable: " + lib, "cuda/fast: CUDA unavailable: " + lib},
		// A message of a file written before the fix.
		{"cuda/fast", "unavailable on this machine: cuda/fast: CUDA unavailable: " + lib, "cuda/fast: CUDA unavailable: " + lib},
		{"cuda/paper", "unavailable on this machine: cuda/paper: no CUDA device", "cuda/paper unavailable: no CUDA device"},
		{"cuda/x", "unavailable on this machine: implementation cuda/x is not built into this binary", "cuda/x unavailable: implementation cuda/x is not built into this binary"},
		{"cuda/x", "needs a GPU", "cuda/x unavailable: needs a GPU"},
		{"cuda/x", "", "cuda/x unavailable"},
	} {
		if got := UnavailableNote(c.impl, c.msg); got != c.want {
			t.Errorf("UnavailableNote(%q, %q)\n got %q\nwant %q", c.impl, c.msg, got, c.want)
		}
	}
}

// TestLAPSolveNamesImplOnce: `semibench solve lap --impl cuda/...` on a
// machine without CUDA said the implementation twice ("cuda/fast:
// cuda/fast: CUDA unavailable"); every CUDA LAP implementation's error now
// names it once.
func TestLAPSolveNamesImplOnce(t *testing.T) {
	if Available("cuda/fast") == nil {
		t.Skip("a CUDA device is present")
	}
	c, err := lap.ReadCosts(strings.NewReader("1,2\n3,4\n"), "two.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, im := range impls.LAP.All() {
		if !strings.HasPrefix(im.Name, "cuda/") {
			continue
		}
		_, err := lap.Solve(context.Background(), c, im, false)
		if err == nil {
			t.Errorf("%s solved without CUDA", im.Name)
			continue
		}
		msg := err.Error()
		if n := strings.Count(msg, im.Name+":"); n != 1 {
			t.Errorf("%q names %s %d times, want once", msg, im.Name, n)
		}
		if seg := repeatedSegment(msg); seg != "" {
			t.Errorf("%q repeats %q", msg, seg)
		}
	}
}
