package cuda

import (
	"runtime"
	"testing"
)

func TestRecyclerReusesOnlyWhatWasGivenBack(t *testing.T) {
	var r Recycler[float32]
	a := r.Take(1000).Wait()
	if len(a) != 1000 {
		t.Fatalf("Take(1000) gave %d elements", len(a))
	}
	b := r.Take(1000).Wait()
	if &a[0] == &b[0] {
		t.Fatal("two outstanding slices share memory")
	}
	// Nothing was given back: a third Take is fresh too.
	c := r.Take(500).Wait()
	if &c[0] == &a[0] || &c[0] == &b[0] {
		t.Fatal("Take reused a slice that was never given back")
	}
	if !r.Give(a) {
		t.Fatal("Give refused a slice from Take")
	}
	if r.Give(a) {
		t.Fatal("Give took the same slice back twice")
	}
	if r.Give(make([]float32, 1000)) {
		t.Fatal("Give took a slice Take never handed out")
	}
	if r.Kept() != 1 {
		t.Fatalf("kept %d slices, want 1", r.Kept())
	}
	// A smaller request reuses a's memory.
	d := r.Take(800).Wait()
	if &d[0] != &a[0] || len(d) != 800 {
		t.Fatalf("Take(800) after giving back a 1000-element slice: reused %v, len %d", &d[0] == &a[0], len(d))
	}
	// A larger request does not fit it.
	if !r.Give(d) {
		t.Fatal("Give refused a reused slice")
	}
	e := r.Take(2000).Wait()
	if &e[0] == &a[0] || len(e) != 2000 {
		t.Fatal("Take(2000) reused a 1000-element slice")
	}
	if r.Kept() != 1 {
		t.Fatalf("kept %d slices, want 1 (the 1000-element one)", r.Kept())
	}
	runtime.KeepAlive(b)
	runtime.KeepAlive(c)
}

func TestRecyclerKeepsAtMostKeep(t *testing.T) {
	r := Recycler[int32]{Keep: 2}
	var s [][]int32
	for i := 1; i <= 4; i++ {
		s = append(s, r.Take(100*i).Wait())
	}
	for _, x := range s {
		if !r.Give(x) {
			t.Fatal("Give refused a slice from Take")
		}
	}
	if r.Kept() != 2 {
		t.Fatalf("kept %d, want 2", r.Kept())
	}
	// The two largest are kept: a request for 350 elements is served from
	// the 400-element one, the smallest that fits.
	x := r.Take(350).Wait()
	if &x[0] != &s[3][0] {
		t.Fatal("Take(350) did not reuse the 400-element slice")
	}
	y := r.Take(250).Wait()
	if &y[0] != &s[2][0] {
		t.Fatal("Take(250) did not reuse the 300-element slice")
	}
	if z := r.Take(0).Wait(); len(z) != 0 {
		t.Fatalf("Take(0) gave %d elements", len(z))
	}
}

func TestRecyclerForgetsCollectedSlices(t *testing.T) {
	var r Recycler[byte]
	for range 3 {
		_ = r.Take(1 << 16).Wait() // never given back
		runtime.GC()
	}
	runtime.GC()
	s := r.Take(16).Wait()
	r.mu.Lock()
	n := len(r.out)
	r.mu.Unlock()
	if n > 2 {
		t.Fatalf("%d slices tracked as outstanding after the others were collected", n)
	}
	runtime.KeepAlive(s)
}
