package report

import (
	"fmt"
	"strings"

	"github.com/semibench/semibench/bench"
)

// maxLabel is the longest machine label a comparison's columns carry
// as it is; longer ones get a short alias (aliasLabels).
const maxLabel = 12

// aliasLabels gives each file a short column label, which the preface's
// legend ties to its machine: the machine labels when every one is at
// most maxLabel characters; else each file's GPU model ("H100" of "NVIDIA
// H100 80GB HBM3") when every file has one and they differ; else "A",
// "B", ... Repeats are told apart later (uniqueLabels).
func aliasLabels(files []*bench.File) []string {
	out := make([]string, len(files))
	short := true
	for i, f := range files {
		out[i] = fileLabel(f, i)
		short = short && len(out[i]) <= maxLabel
	}
	if short {
		return out
	}
	seen := map[string]bool{}
	models := true
	for i, f := range files {
		m := gpuModel(f)
		models = models && m != "" && len(m) <= maxLabel && !seen[m]
		seen[m] = true
		out[i] = m
	}
	if models {
		return out
	}
	for i := range files {
		out[i] = string(rune('A' + i%26))
		if i >= 26 {
			out[i] += fmt.Sprint(i / 26)
		}
	}
	return out
}

// gpuModel is a file's first GPU's model word, "" without a GPU: the
// first word of its name after the maker's ("H100" of "NVIDIA H100 80GB
// HBM3", "V100-PCIE-32GB" of "Tesla V100-PCIE-32GB").
func gpuModel(f *bench.File) string {
	if len(f.Machine.GPUs) == 0 {
		return ""
	}
	words := strings.Fields(f.Machine.GPUs[0].Name)
	for len(words) > 1 && (words[0] == "NVIDIA" || words[0] == "Tesla" || words[0] == "GeForce") {
		words = words[1:]
	}
	if len(words) == 0 {
		return ""
	}
	return words[0]
}

// preface is the comparison's first lines: a legend of the files' labels
// (their machines, GPUs, commits and paths) and what their commits say
// about the code they ran.
func (c *comparison) preface() Table {
	t := Table{Title: "Comparing " + strings.Join(c.names, ", ")}
	for i, f := range c.files {
		line := c.names[i] + ": " + strings.TrimPrefix(legendLine(f), c.names[i]+"; ")
		if c.opt.Paths != nil && i < len(c.opt.Paths) {
			line += " (" + c.opt.Paths[i] + ")"
		}
		t.Notes = append(t.Notes, line+".")
	}
	t.Notes = append(t.Notes, c.commitLines()...)
	return t
}

// legendLine names a file's machine, GPU and build in one line.
func legendLine(f *bench.File) string {
	m := f.Machine
	parts := []string{m.Label}
	for _, g := range m.GPUs[:min(1, len(m.GPUs))] {
		gpu := g.Name
		var det []string
		if g.ComputeCapability != "" {
			det = append(det, "CC "+g.ComputeCapability)
		}
		if g.SMs > 0 && g.ClockMHz > 0 {
			det = append(det, fmt.Sprintf("%d SMs at %d MHz", g.SMs, g.ClockMHz))
		}
		if p := PeaksOf(g); p.BytesPerS > 0 {
			det = append(det, fmt.Sprintf("%.3g TB/s", p.BytesPerS/1e12))
		}
		if len(det) > 0 {
			gpu += " (" + strings.Join(det, ", ") + ")"
		}
		if len(m.GPUs) > 1 {
			gpu += fmt.Sprintf(" and %d more", len(m.GPUs)-1)
		}
		parts = append(parts, gpu)
	}
	if m.CPU != "" {
		cpu := m.CPU
		if m.Cores > 0 {
			cpu += fmt.Sprintf(" (%d cores)", m.Cores)
		}
		parts = append(parts, cpu)
	}
	switch {
	case f.Source != "":
		parts = append(parts, "the paper's figures")
	case f.Semibench.Commit != "":
		parts = append(parts, "semibench at "+shortCommit(f.Semibench.Commit))
	case f.Semibench.Version != "":
		parts = append(parts, "semibench "+f.Semibench.Version+", commit not recorded")
	}
	if f.Scale != "" {
		parts = append(parts, "scale "+f.Scale)
	}
	return strings.Join(parts, "; ")
}
