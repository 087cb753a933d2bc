package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/semibench/semibench/impls/cuda/driver"
)

func bindPlan(names ...string) Plan {
	p := Plan{What: "test plan"}
	for i, n := range names {
		p.Buffers = append(p.Buffers, Buffer{Name: n, Bytes: uint64(4 * (i + 1))})
	}
	return p
}

type bindInput struct {
	In driver.DevicePtr `buf:"t.in"`
}

type bindGood struct {
	bindInput
	Out   driver.DevicePtr `buf:"t.out"`
	Extra driver.DevicePtr `buf:"t.extra,optional"`
	Note  string           // untagged: ignored
}

// fakeAlloc hands out distinct pointers and records the buffers asked for.
type fakeAlloc struct {
	next  driver.DevicePtr
	asked []string
	fail  string
}

func (f *fakeAlloc) alloc(b Buffer) (driver.DevicePtr, error) {
	if b.Name == f.fail {
		return 0, errors.New("out of memory")
	}
	f.asked = append(f.asked, b.Name)
	f.next += 0x1000
	return f.next, nil
}

func TestBindAccepts(t *testing.T) {
	for _, p := range []Plan{bindPlan("t.in", "t.out"), bindPlan("t.out", "t.extra", "t.in")} {
		var g bindGood
		if err := Bind(p, &g); err != nil {
			t.Fatalf("%v: %v", p.Buffers, err)
		}
		g.Extra = 0xdead // stale from an earlier plan: BindWith must clear it
		fa := &fakeAlloc{}
		if err := BindWith(p, &g, fa.alloc); err != nil {
			t.Fatalf("%v: %v", p.Buffers, err)
		}
		got := map[string]driver.DevicePtr{"t.in": g.In, "t.out": g.Out, "t.extra": g.Extra}
		for i, b := range p.Buffers {
			if want := driver.DevicePtr(0x1000 * (i + 1)); got[b.Name] != want {
				t.Errorf("%v: buffer %s bound to %#x, want %#x", p.Buffers, b.Name, got[b.Name], want)
			}
			delete(got, b.Name)
		}
		for name, ptr := range got {
			if ptr != 0 {
				t.Errorf("%v: optional %s absent from the plan holds %#x, want 0", p.Buffers, name, ptr)
			}
		}
		if len(fa.asked) != len(p.Buffers) {
			t.Errorf("%v: allocated %v", p.Buffers, fa.asked)
		}
	}
}

func TestBindRejects(t *testing.T) {
	type typo struct {
		In  driver.DevicePtr `buf:"t.in"`
		Out driver.DevicePtr `buf:"t.uot"`
	}
	type missing struct {
		In driver.DevicePtr `buf:"t.in"`
	}
	type wrongType struct {
		In  driver.DevicePtr `buf:"t.in"`
		Out uint64           `buf:"t.out"`
	}
	type unexported struct {
		In  driver.DevicePtr `buf:"t.in"`
		out driver.DevicePtr `buf:"t.out"`
	}
	type twice struct {
		In  driver.DevicePtr `buf:"t.in"`
		Out driver.DevicePtr `buf:"t.out"`
		Dup driver.DevicePtr `buf:"t.out"`
	}
	type badOption struct {
		In  driver.DevicePtr `buf:"t.in"`
		Out driver.DevicePtr `buf:"t.out,optinal"`
	}
	var (
		nilPtr *bindGood
		good   bindGood
		u      unexported
	)
	_ = u.out
	p := bindPlan("t.in", "t.out")
	for _, c := range []struct {
		what  string
		plan  Plan
		dst   any
		words []string // the error must name these
	}{
		{"mistyped tag", p, &typo{}, []string{"test plan", "Out", "t.uot", "t.out"}},
		{"plan buffer with no field", p, &missing{}, []string{"test plan", "t.out"}},
		{"field naming no buffer", bindPlan("t.in"), &good, []string{"test plan", "Out", "t.out"}},
		{"non-pointer", p, good, []string{"test plan", "pointer"}},
		{"nil pointer", p, nilPtr, []string{"test plan", "pointer"}},
		{"nil", p, nil, []string{"test plan", "pointer"}},
		{"pointer to a non-struct", p, new(driver.DevicePtr), []string{"test plan", "pointer"}},
		{"non-DevicePtr field", p, &wrongType{}, []string{"test plan", "Out", "t.out", "uint64"}},
		{"unexported field", p, &u, []string{"test plan", "out", "unexported"}},
		{"two fields, one buffer", p, &twice{}, []string{"test plan", "Out", "Dup", "t.out"}},
		{"bad option", p, &badOption{}, []string{"test plan", "Out", "optinal"}},
		{"buffer twice in the plan", bindPlan("t.in", "t.out", "t.in"), &good, []string{"test plan", "t.in", "twice"}},
	} {
		err := Bind(c.plan, c.dst)
		if err == nil {
			t.Errorf("%s: Bind accepted %T", c.what, c.dst)
			continue
		}
		for _, w := range c.words {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not name %q", c.what, err, w)
			}
		}
		fa := &fakeAlloc{}
		if err := BindWith(c.plan, c.dst, fa.alloc); err == nil || len(fa.asked) > 0 {
			t.Errorf("%s: BindWith returned %v after allocating %v; want an error before any allocation", c.what, err, fa.asked)
		}
	}
}

func TestBindWithStopsAtAllocError(t *testing.T) {
	var g bindGood
	fa := &fakeAlloc{fail: "t.out"}
	err := BindWith(bindPlan("t.in", "t.out"), &g, fa.alloc)
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("BindWith: %v, want the allocation's error", err)
	}
}
