package cuda

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/semibench/semibench/impls/cuda/nvrtc"
	"github.com/semibench/semibench/kernels"
)

// ExportPTX regenerates the fallback PTX of every kernel source into dir
// (normally kernels/ptx in the source tree) with NVRTC for kernels.FallbackArch,
// handing it the source's headers and stamping each file with
// Source.SHA256. It needs libnvrtc (any
// version from 11.2 on); it returns an error matching nvrtc.ErrNotFound
// without one, and the compiler's log on a compilation error.
func ExportPTX(dir string) error {
	if err := nvrtc.Load(); err != nil {
		return fmt.Errorf("exporting PTX: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("exporting PTX: %w", err)
	}
	var srcs []kernels.Source
	for _, n := range kernels.Names() {
		s, err := kernels.Get(n)
		if err != nil {
			return fmt.Errorf("exporting PTX: %w", err)
		}
		srcs = append(srcs, s)
	}
	if len(srcs) == 0 {
		return errors.New("exporting PTX: no kernel sources embedded")
	}
	ver, _ := nvrtc.Version()
	if archs, _ := nvrtc.SupportedArchs(); len(archs) > 0 && !slices.Contains(archs, fallbackCC) {
		return fmt.Errorf("exporting PTX: NVRTC %s cannot target %s (its oldest architecture is sm_%d): %w; regenerate with an NVRTC from 11.2 to 12.x", ver, kernels.FallbackArch, slices.Min(archs), ErrFallbackArch)
	}
	for _, s := range srcs {
		out, err := nvrtc.Compile(s.Code, s.Name+".cu", nvrtcHeaders(s), kernels.Options(kernels.FallbackArch))
		if err != nil {
			return fmt.Errorf("compiling %s for %s: %w", kernels.Describe(s), kernels.FallbackArch, err)
		}
		ptx := bytes.TrimRight(out.Code, "\x00")
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "%s%s\n", kernels.StampPrefix, s.SHA256())
		fmt.Fprintf(&buf, "// Generated from kernels/%s by `semibench kernels export` (NVRTC %s, %s). Do not edit.\n", kernels.Describe(s), ver, kernels.FallbackArch)
		buf.Write(ptx)
		if !bytes.HasSuffix(ptx, []byte("\n")) {
			buf.WriteByte('\n')
		}
		if err := writeFileAtomic(filepath.Join(dir, s.Name+".ptx"), buf.Bytes()); err != nil {
			return fmt.Errorf("exporting PTX: %w", err)
		}
	}
	return nil
}

// fallbackCC is kernels.FallbackArch's compute capability.
const fallbackCC = 70

// ErrFallbackArch is wrapped by ExportPTX when the NVRTC found no longer
// compiles for kernels.FallbackArch (CUDA 13 dropped Volta).
var ErrFallbackArch = errors.New("the fallback architecture is not supported by this NVRTC")

// nvrtcHeaders hands a source's headers to NVRTC.
func nvrtcHeaders(s kernels.Source) []nvrtc.Header {
	hs := make([]nvrtc.Header, len(s.Headers))
	for i, h := range s.Headers {
		hs[i] = nvrtc.Header{Name: h.Name, Code: h.Code}
	}
	return hs
}

func writeFileAtomic(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".tmp-"+filepath.Base(name)+"-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), name)
}
