package cuda

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/semibench/semibench/impls/cuda/driver"
	"github.com/semibench/semibench/impls/cuda/nvrtc"
	"github.com/semibench/semibench/kernels"
)

// Kernel paths, as reported in bench.CUDAInfo.KernelPath.
const (
	PathNVRTC       = "nvrtc"        // compiled at run time for the device
	PathFallbackPTX = "fallback-ptx" // the embedded compute_70 PTX, JIT-compiled by the driver
)

// Module is a loaded kernel module and how it was obtained.
type Module struct {
	Name    string // the kernel source, e.g. "kleene"
	Handle  driver.Module
	Path    string // PathNVRTC or PathFallbackPTX
	Arch    string // e.g. "sm_90a", "compute_90" or "compute_70"
	NVRTC   string // NVRTC version used, if any
	Cached  bool   // the compiled code came from the disk cache
	Elapsed time.Duration
	// Note says why the fallback PTX was used (e.g. no NVRTC).
	Note string
	fns  map[string]driver.Function
}

// ArchCandidates returns the NVRTC targets to try, best first, for a device
// of compute capability major.minor with NVRTC of the given major version and
// supported real architectures (nil when unknown): the architecture-specific
// cubin (sm_90a, CUDA 12+), the plain cubin (sm_90), then PTX for the device
// (compute_90); when NVRTC does not know the device, PTX for the newest
// architecture it knows below it, which the driver JIT-compiles.
func ArchCandidates(major, minor, nvrtcMajor int, supported []int) []string {
	cc := major*10 + minor
	if len(supported) > 0 && !slices.Contains(supported, cc) {
		best := 0
		for _, s := range supported {
			if s <= cc && s > best {
				best = s
			}
		}
		if best == 0 {
			return nil
		}
		return []string{fmt.Sprintf("compute_%d", best)}
	}
	var out []string
	if cc >= 90 && nvrtcMajor >= 12 && (minor == 0 || cc >= 100) {
		out = append(out, fmt.Sprintf("sm_%da", cc))
	}
	return append(out, fmt.Sprintf("sm_%d", cc), fmt.Sprintf("compute_%d", cc))
}

// CacheDir is where compiled kernels are kept: the user cache folder's
// semibench/kernels, or "" when there is none.
func CacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "semibench", "kernels")
}

// cacheKey names a compiled kernel by source hash (Source.SHA256, which
// covers its headers), target and NVRTC version.
func cacheKey(src kernels.Source, arch, version string, opts []string) string {
	h := sha256.Sum256([]byte(strings.Join(opts, "\x00")))
	ext := ".ptx"
	if strings.HasPrefix(arch, "sm_") {
		ext = ".cubin"
	}
	return fmt.Sprintf("%s-%s-%s-nvrtc%s-%s%s", src.Name, src.SHA256()[:16], arch, version, hex.EncodeToString(h[:4]), ext)
}

// compile returns the device code of src for one of the candidate
// architectures, from the disk cache or NVRTC.
func compile(src kernels.Source, props driver.Props) (code []byte, arch string, cached bool, err error) {
	major, _, err := nvrtc.VersionNumbers()
	if err != nil {
		return nil, "", false, err
	}
	version, _ := nvrtc.Version()
	supported, _ := nvrtc.SupportedArchs()
	cands := ArchCandidates(props.Major, props.Minor, major, supported)
	if len(cands) == 0 {
		return nil, "", false, fmt.Errorf("NVRTC %s supports no architecture at or below the device's %s", version, props.ComputeCapability())
	}
	dir := CacheDir()
	var errs []string
	for _, a := range cands {
		opts := kernels.Options(a)
		key := cacheKey(src, a, version, opts)
		if dir != "" {
			if b, err := os.ReadFile(filepath.Join(dir, key)); err == nil && len(b) > 0 {
				return b, a, true, nil
			}
		}
		out, err := nvrtc.Compile(src.Code, src.Name+".cu", nvrtcHeaders(src), opts)
		if err != nil {
			var ne *nvrtc.Error
			if errors.As(err, &ne) && ne.Code == 6 { // NVRTC_ERROR_COMPILATION: the source is wrong
				return nil, a, false, fmt.Errorf("compiling kernels/%s.cu (headers %v) for %s: %w", src.Name, src.HeaderNames(), a, err)
			}
			errs = append(errs, fmt.Sprintf("%s: %v", a, err))
			continue
		}
		code = out.Code
		if !out.Cubin && (len(code) == 0 || code[len(code)-1] != 0) {
			code = append(code, 0)
		}
		if dir != "" {
			_ = writeCache(dir, key, code) // a cache that cannot be written is not an error
		}
		return code, a, false, nil
	}
	return nil, "", false, fmt.Errorf("NVRTC %s could not target the device: %s", version, strings.Join(errs, "; "))
}

func writeCache(dir, key string, b []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-"+key+"-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return errors.Join(werr, cerr)
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, key))
}

// LoadModule loads the named kernel source (kernels/NAME.cu) on the
// thread's context: compiled by NVRTC for the device when NVRTC is
// available (cached on disk by source hash, architecture and NVRTC
// version), else the embedded fallback PTX JIT-compiled by the driver. A
// compilation error of the source is returned with NVRTC's log; NVRTC that
// cannot target the device, or a cubin the driver refuses, falls back to
// the PTX.
func LoadModule(t *driver.Thread, props driver.Props, name string) (*Module, error) {
	t0 := time.Now()
	src, err := kernels.Get(name)
	if err != nil {
		return nil, err
	}
	m := &Module{Name: name, fns: map[string]driver.Function{}}
	if nerr := nvrtc.Load(); nerr == nil {
		code, arch, cached, err := compile(src, props)
		if err != nil {
			var ne *nvrtc.Error
			if errors.As(err, &ne) && ne.Code == 6 {
				return nil, err
			}
			m.Note = err.Error()
		} else {
			h, _, lerr := t.ModuleLoadData(code)
			if lerr == nil {
				m.Handle, m.Path, m.Arch, m.Cached = h, PathNVRTC, arch, cached
				m.NVRTC, _ = nvrtc.Version()
				m.Elapsed = time.Since(t0)
				return m, nil
			}
			m.Note = fmt.Sprintf("loading the NVRTC build for %s: %v", arch, lerr)
		}
	} else {
		m.Note = nerr.Error()
	}
	ptx, err := kernels.FallbackPTX(name)
	if err != nil {
		return nil, err
	}
	h, _, err := t.ModuleLoadData(ptx)
	if err != nil {
		return nil, fmt.Errorf("loading the fallback PTX of kernels/%s.cu (%s): %w", name, m.Note, err)
	}
	m.Handle, m.Path, m.Arch = h, PathFallbackPTX, kernels.FallbackArch
	m.Elapsed = time.Since(t0)
	return m, nil
}

// Function returns a kernel of the module, caching the lookup.
func (m *Module) Function(t *driver.Thread, name string) (driver.Function, error) {
	if f, ok := m.fns[name]; ok {
		return f, nil
	}
	f, err := t.Function(m.Handle, name)
	if err != nil {
		return 0, fmt.Errorf("kernels/%s.cu (%s, %s): %w", m.Name, m.Path, m.Arch, err)
	}
	m.fns[name] = f
	return f, nil
}
