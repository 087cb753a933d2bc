package driver

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/ebitengine/purego"
)

// repeatedSegment returns the first ": "-separated segment of msg that
// equals the one before it (case-insensitively), or "" when none does:
// "cuda/fast: cuda/fast: x" and "CUDA unavailable: CUDA unavailable: x" both
// fail it.
func repeatedSegment(msg string) string {
	parts := strings.Split(msg, ": ")
	for i := 1; i < len(parts); i++ {
		if strings.EqualFold(parts[i], parts[i-1]) {
			return parts[i]
		}
	}
	return ""
}

// checkLoadMessage checks a failed load's message: the sentinel once, each
// library named with a non-empty dlerror text, no repeated segment.
func checkLoadMessage(t *testing.T, msg string, names []string) {
	t.Helper()
	if n := strings.Count(msg, ErrUnavailable.Error()); n != 1 {
		t.Errorf("%q says %q %d times, want once", msg, ErrUnavailable, n)
	}
	if seg := repeatedSegment(msg); seg != "" {
		t.Errorf("%q repeats %q", msg, seg)
	}
	for _, name := range names {
		i := strings.Index(msg, name+": ")
		if i < 0 {
			t.Errorf("%q does not name %s with its dlerror text", msg, name)
			continue
		}
		rest := msg[i+len(name)+2:]
		if rest == "" || rest[0] == ';' || strings.HasPrefix(rest, "dlopen failed and dlerror gave no reason") {
			t.Errorf("%q: %s has no dlerror text", msg, name)
		}
	}
	if strings.Contains(msg, "(;") || strings.Contains(msg, "; ;") || strings.HasSuffix(msg, ": ") {
		t.Errorf("%q has an empty reason", msg)
	}
}

// TestLoadFailureMessage opens libraries that cannot load, 50 times on each
// of 4 goroutines at once, so goroutines move between OS threads: every
// message must carry dlerror's own text for each name (read on the thread
// that called dlopen) and say each thing once. Before Dlopen locked the
// thread, about one in four runs printed "libcuda.so.1 (; libcuda.so: ...".
func TestLoadFailureMessage(t *testing.T) {
	names := []string{"libsemibench-absent.so.1", "libsemibench-absent.so"}
	if _, err := Dlopen(libNames[0], purego.RTLD_NOW|purego.RTLD_GLOBAL); err != nil {
		// No driver here: the real names must give the same quality of message.
		names = append(names, libNames...)
	}
	var wg sync.WaitGroup
	msgs := make(chan string, 4*50)
	for range 4 {
		wg.Go(func() {
			for range 50 {
				_, _, err := OpenFirst(purego.RTLD_NOW|purego.RTLD_GLOBAL, names...)
				if err == nil {
					msgs <- ""
					continue
				}
				msgs <- loadFailure(err).Error()
			}
		})
	}
	wg.Wait()
	close(msgs)
	for msg := range msgs {
		if msg == "" {
			t.Fatal("a library that does not exist opened")
		}
		checkLoadMessage(t, msg, names)
		if t.Failed() {
			return
		}
	}
}

// TestInitMessage checks Init's own error on a machine without the driver
// library: it matches ErrUnavailable, names libcuda.so.1 and says each thing
// once.
func TestInitMessage(t *testing.T) {
	err := Init()
	if err == nil {
		t.Skip("the CUDA driver loaded here")
	}
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Init: %v does not match ErrUnavailable", err)
	}
	if _, lerr := Dlopen(libNames[0], purego.RTLD_NOW); lerr == nil {
		// The library is there; cuInit failed (no device): one sentinel, no repeats.
		checkLoadMessage(t, err.Error(), nil)
		return
	}
	checkLoadMessage(t, err.Error(), libNames)
}

func TestOpenFirstNoNames(t *testing.T) {
	if _, _, err := OpenFirst(purego.RTLD_NOW); err == nil {
		t.Error("OpenFirst with no names must fail")
	}
}
