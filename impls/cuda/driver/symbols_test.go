package driver

import (
	"testing"

	"github.com/ebitengine/purego"
)

// TestSymbols: the zero Symbols finds nothing; once opened on libc it finds
// an exported name and, twice over, not an absent one.
func TestSymbols(t *testing.T) {
	var s Symbols
	if s.Loaded() || s.Lookup("strlen") != 0 {
		t.Fatal("the zero Symbols found a symbol")
	}
	h, _, err := OpenFirst(purego.RTLD_NOW|purego.RTLD_LOCAL, "libc.so.6", "libc.so")
	if err != nil {
		t.Skipf("no libc to open: %v", err)
	}
	s.Open(h)
	if !s.Loaded() || s.Lookup("strlen") == 0 {
		t.Error("strlen not found in libc")
	}
	for range 2 {
		if s.Lookup("semibench_no_such_symbol") != 0 {
			t.Error("an absent symbol found")
		}
	}
}

// TestGoString copies up to the NUL, and nil is "".
func TestGoString(t *testing.T) {
	b := []byte("sm_90a\x00tail")
	if got := GoString(&b[0]); got != "sm_90a" {
		t.Errorf("GoString = %q", got)
	}
	if GoString(nil) != "" {
		t.Error("GoString(nil) is not empty")
	}
}
