// Package kernels holds semibench's CUDA C++ kernels (kernels/*.cu), the
// headers they share (kernels/*.cuh) and their fallback PTX
// (kernels/ptx/*.ptx), all embedded in the binary.
//
// At run time the sources are compiled by NVRTC for the exact device (see
// package impls/cuda); where NVRTC is missing, the fallback PTX, built for
// compute_70, is JIT-compiled by the driver.
//
// Headers: code that several sources share lives in kernels/NAME.cuh
// (semiring.cuh: the semiring operator structs; gemm.cuh: the one
// register-tiled semiring GEMM; grid.cuh: the grid barrier of the
// cooperative kernels), included with `#include "NAME.cuh"` on a
// line of its own (quotes, no folder). Each header has an include guard and
// may include other headers the same way. A source's headers are the
// transitive closure of its quoted includes (Source.Headers); NVRTC is handed
// exactly those, by name, so no include path is needed, and nothing outside
// kernels/ is included. nvcc finds them with -I kernels.
//
// Stamps: each PTX file starts with a comment stamping Source.SHA256, the
// SHA-256 of the source followed by its headers' names and texts in name
// order (of the source alone when it includes no header), so a test fails
// when a .cu or any header it includes is edited without regenerating the
// PTX (impls/cuda.ExportPTX, run by `semibench kernels export` or `make ptx`).
package kernels

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

//go:embed *.cu *.cuh
var sourceFS embed.FS

//go:embed ptx/*.ptx
var ptxFS embed.FS

// StampPrefix starts the first line of every fallback PTX file; the
// source's SHA256 (hex) follows it.
const StampPrefix = "// semibench-source-sha256: "

// FallbackArch is the virtual architecture of the fallback PTX: the oldest
// one the kernels support (Volta, for __shfl_sync and __ballot_sync), which
// every later GPU's driver can JIT-compile.
const FallbackArch = "compute_70"

// Header is a shared header, kernels/NAME.cuh: an `#include "Name"` in a
// source (or another header) resolves to Code. Name includes ".cuh".
type Header struct {
	Name string
	Code string
}

// Source is one kernel source file and the headers it includes.
type Source struct {
	Name string // file name without ".cu", e.g. "kleene"
	Code string
	// Headers are the headers the source includes, directly or through
	// other headers, sorted by name.
	Headers []Header
}

// SHA256 returns the hex SHA-256 that stamps the source's PTX: of the
// source text alone when it includes no header, else of the source text
// followed, for each header in name order, by a NUL, the header's name, a
// NUL and its text.
func (s Source) SHA256() string {
	h := sha256.New()
	h.Write([]byte(s.Code))
	for _, hd := range s.Headers {
		h.Write([]byte("\x00" + hd.Name + "\x00"))
		h.Write([]byte(hd.Code))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// HeaderNames returns the names of the source's headers.
func (s Source) HeaderNames() []string {
	out := make([]string, len(s.Headers))
	for i, h := range s.Headers {
		out[i] = h.Name
	}
	return out
}

// includeRE matches a quoted include on a line of its own.
var includeRE = regexp.MustCompile(`^\s*#\s*include\s*"([^"]+)"`)

// includes returns the quoted includes of code and the lines they are on.
func includes(code string) (names []string, lines []int) {
	sc := bufio.NewScanner(strings.NewReader(code))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if m := includeRE.FindStringSubmatch(sc.Text()); m != nil {
			names = append(names, m[1])
			lines = append(lines, n)
		}
	}
	return names, lines
}

// loadSource reads NAME.cu from fsys and resolves its headers there.
func loadSource(fsys fs.FS, name string) (Source, error) {
	b, err := fs.ReadFile(fsys, name+".cu")
	if err != nil {
		return Source{}, fmt.Errorf("no kernel source %s.cu: %w", name, err)
	}
	src := Source{Name: name, Code: string(b)}
	seen := map[string]bool{}
	var visit func(file, code string) error
	visit = func(file, code string) error {
		names, lines := includes(code)
		for i, inc := range names {
			if seen[inc] {
				continue
			}
			if !strings.HasSuffix(inc, ".cuh") || strings.Contains(inc, "/") {
				return fmt.Errorf("kernels/%s:%d: #include %q: kernels include only kernels/NAME.cuh", file, lines[i], inc)
			}
			hb, err := fs.ReadFile(fsys, inc)
			if err != nil {
				return fmt.Errorf("kernels/%s:%d: #include %q: %w", file, lines[i], inc, err)
			}
			seen[inc] = true
			src.Headers = append(src.Headers, Header{Name: inc, Code: string(hb)})
			if err := visit(inc, string(hb)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(name+".cu", src.Code); err != nil {
		return Source{}, err
	}
	sort.Slice(src.Headers, func(i, j int) bool { return src.Headers[i].Name < src.Headers[j].Name })
	return src, nil
}

// sourceNames returns the names (without ".cu") of the sources in fsys.
func sourceNames(fsys fs.FS) []string {
	ents, _ := fs.ReadDir(fsys, ".")
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".cu"); ok && !e.IsDir() {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Sources returns every embedded kernel source, sorted by name; a source
// whose headers do not resolve is left out (Get says why; a test checks
// that none is).
func Sources() []Source {
	var out []Source
	for _, n := range sourceNames(sourceFS) {
		if s, err := loadSource(sourceFS, n); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// Get returns the named kernel source with its headers.
func Get(name string) (Source, error) {
	return loadSource(sourceFS, name)
}

// HeaderFiles returns the names of the embedded headers (with ".cuh").
func HeaderFiles() []string {
	m, _ := fs.Glob(sourceFS, "*.cuh")
	sort.Strings(m)
	return m
}

// FallbackPTX returns the embedded PTX of the named source, NUL-terminated
// as cuModuleLoadDataEx expects. It refuses PTX whose stamp does not match
// the embedded source.
func FallbackPTX(name string) ([]byte, error) {
	src, err := Get(name)
	if err != nil {
		return nil, err
	}
	b, err := ptxFS.ReadFile(path.Join("ptx", name+".ptx"))
	if err != nil {
		return nil, fmt.Errorf("no fallback PTX for %s.cu (run `make ptx`): %w", name, err)
	}
	stamp, ok := Stamp(b)
	if !ok {
		return nil, fmt.Errorf("kernels/ptx/%s.ptx has no source stamp (run `make ptx`)", name)
	}
	if stamp != src.SHA256() {
		return nil, fmt.Errorf("kernels/ptx/%s.ptx was built from another version of %s (run `make ptx`)", name, Describe(src))
	}
	out := make([]byte, len(b)+1)
	copy(out, b)
	return out, nil
}

// PTXFiles returns the names (without ".ptx") of the embedded PTX files.
func PTXFiles() []string {
	ents, _ := fs.ReadDir(ptxFS, "ptx")
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".ptx"); ok {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// describe names a source and its headers, e.g. "apsp.cu (+ gemm.cuh,
// semiring.cuh)".
func Describe(s Source) string {
	if len(s.Headers) == 0 {
		return s.Name + ".cu"
	}
	return fmt.Sprintf("%s.cu (+ %s)", s.Name, strings.Join(s.HeaderNames(), ", "))
}

// Stamp returns the source hash stamped on the first line of a PTX file.
func Stamp(ptx []byte) (string, bool) {
	line, _, _ := bytes.Cut(ptx, []byte("\n"))
	h, ok := strings.CutPrefix(strings.TrimSpace(string(line)), StampPrefix)
	if !ok || len(h) != 64 {
		return "", false
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", false
	}
	return h, true
}

// Options returns the NVRTC options the kernels are compiled with for a
// target architecture (e.g. "sm_90a" or "compute_70").
func Options(arch string) []string {
	return []string{"--gpu-architecture=" + arch, "-std=c++17", "--device-as-default-execution-space"}
}

// Names returns the names (without ".cu") of the embedded kernel sources,
// sorted.
func Names() []string { return sourceNames(sourceFS) }
