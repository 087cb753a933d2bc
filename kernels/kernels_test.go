package kernels

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestPTXStamps fails when a kernel source has no fallback PTX, when a PTX
// file has no source, or when a source or a header it includes was edited
// without regenerating its PTX (`make ptx`).
func TestPTXStamps(t *testing.T) {
	srcs := Sources()
	if len(srcs) == 0 {
		t.Fatal("no kernel sources embedded")
	}
	ptx := PTXFiles()
	for _, s := range srcs {
		if !slices.Contains(ptx, s.Name) {
			t.Errorf("%s.cu has no kernels/ptx/%s.ptx: run `make ptx`", s.Name, s.Name)
			continue
		}
		if _, err := FallbackPTX(s.Name); err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
	}
	for _, p := range ptx {
		if _, err := Get(p); err != nil {
			t.Errorf("kernels/ptx/%s.ptx has no source: %v", p, err)
		}
	}
}

func TestStamp(t *testing.T) {
	h := strings.Repeat("ab", 32)
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{StampPrefix + h + "\n.version 7.8\n", h, true},
		{StampPrefix + h, h, true},
		{"//\n" + StampPrefix + h + "\n", "", false},
		{StampPrefix + "abc\n", "", false},
		{StampPrefix + strings.Repeat("zz", 32) + "\n", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		got, ok := Stamp([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("Stamp(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestFallbackPTXIsTerminated(t *testing.T) {
	b, err := FallbackPTX("kleene")
	if err != nil {
		t.Fatal(err)
	}
	if b[len(b)-1] != 0 {
		t.Error("fallback PTX is not NUL-terminated")
	}
	for _, entry := range []string{"kleene_paper_update", "kleene_gemm128", "kleene_permute"} {
		if !strings.Contains(string(b), ".entry "+entry) {
			t.Errorf("fallback PTX lacks entry %s", entry)
		}
	}
	if _, err := FallbackPTX("nosuch"); err == nil {
		t.Error("a missing source must be an error")
	}
}

// TestSourcesResolve checks that every embedded source's includes resolve
// to embedded headers, that every header is included by some source, and
// that apsp.cu and kleene.cu share the semiring and GEMM headers.
func TestSourcesResolve(t *testing.T) {
	used := map[string]bool{}
	for _, n := range sourceNames(sourceFS) {
		s, err := Get(n)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, h := range s.Headers {
			used[h.Name] = true
		}
	}
	if got := len(Sources()); got != len(sourceNames(sourceFS)) {
		t.Errorf("Sources() has %d sources, kernels/ has %d", got, len(sourceNames(sourceFS)))
	}
	for _, h := range HeaderFiles() {
		if !used[h] {
			t.Errorf("kernels/%s is included by no source", h)
		}
	}
	for _, n := range []string{"apsp", "kleene"} {
		s, err := Get(n)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.HeaderNames(); !slices.Equal(got, []string{"gemm.cuh", "semiring.cuh"}) {
			t.Errorf("%s.cu headers %v, want gemm.cuh and semiring.cuh", n, got)
		}
	}
}

// stampFS is an in-memory kernel folder: a.cu includes g.cuh, which
// includes h.cuh (and itself, guarded); b.cu includes nothing; u.cuh is
// included by nobody.
func stampFS() fstest.MapFS {
	return fstest.MapFS{
		"a.cu":  {Data: []byte("// a\n#include \"g.cuh\"\n  #  include \"h.cuh\"\n__global__ void a() {}\n")},
		"b.cu":  {Data: []byte("// #include \"u.cuh\" is a comment, not an include\n__global__ void b() {}\n")},
		"g.cuh": {Data: []byte("#ifndef G\n#define G\n#include \"h.cuh\"\n#include \"g.cuh\"\n#endif\n")},
		"h.cuh": {Data: []byte("#define H 1\n")},
		"u.cuh": {Data: []byte("#define U 1\n")},
	}
}

// TestStampCoversHeaders checks on an in-memory source set that a source's
// stamp changes when any header it includes (directly or through another
// header) changes, and only then.
func TestStampCoversHeaders(t *testing.T) {
	fsys := stampFS()
	get := func(name string) Source {
		t.Helper()
		s, err := loadSource(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := get("a"), get("b")
	if got := a.HeaderNames(); !slices.Equal(got, []string{"g.cuh", "h.cuh"}) {
		t.Fatalf("a.cu headers %v, want [g.cuh h.cuh]", got)
	}
	if len(b.Headers) != 0 {
		t.Fatalf("b.cu headers %v, want none", b.HeaderNames())
	}
	// A source without headers keeps the stamp of its text alone.
	sum := sha256.Sum256(fsys["b.cu"].Data)
	if b.SHA256() != hex.EncodeToString(sum[:]) {
		t.Error("the stamp of a source without headers must be the SHA-256 of its text")
	}
	if sum := sha256.Sum256(fsys["a.cu"].Data); a.SHA256() == hex.EncodeToString(sum[:]) {
		t.Error("the stamp of a source with headers must cover them")
	}
	for _, edit := range []struct {
		file    string
		changes bool
	}{
		{"a.cu", true},
		{"g.cuh", true},
		{"h.cuh", true}, // through g.cuh as well as directly
		{"u.cuh", false},
		{"b.cu", false},
	} {
		fsys := stampFS()
		fsys[edit.file] = &fstest.MapFile{Data: append(slices.Clone(fsys[edit.file].Data), ' ')}
		s, err := loadSource(fsys, "a")
		if err != nil {
			t.Fatal(err)
		}
		if changed := s.SHA256() != a.SHA256(); changed != edit.changes {
			t.Errorf("editing %s: a.cu's stamp changed = %v, want %v", edit.file, changed, edit.changes)
		}
	}
	// Moving text between a source and a header changes the stamp.
	moved := stampFS()
	moved["h.cuh"] = &fstest.MapFile{Data: []byte("#define H 1\n#define")}
	moved["g.cuh"] = &fstest.MapFile{Data: []byte(" G\n#define G\n#include \"h.cuh\"\n#include \"g.cuh\"\n#endif\n")}
	if s, err := loadSource(moved, "a"); err != nil || s.SHA256() == a.SHA256() {
		t.Errorf("moving text from g.cuh to h.cuh must change the stamp (%v)", err)
	}
}

func TestMissingHeader(t *testing.T) {
	fsys := stampFS()
	fsys["c.cu"] = &fstest.MapFile{Data: []byte("\n\n#include \"nosuch.cuh\"\n")}
	if _, err := loadSource(fsys, "c"); err == nil || !strings.Contains(err.Error(), "kernels/c.cu:3") {
		t.Errorf("a missing header must be an error naming kernels/c.cu:3, got %v", err)
	}
	fsys["d.cu"] = &fstest.MapFile{Data: []byte("#include \"../x.cuh\"\n")}
	if _, err := loadSource(fsys, "d"); err == nil {
		t.Error("an include outside kernels/ must be an error")
	}
}
