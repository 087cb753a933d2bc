package bench

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestSlug(t *testing.T) {
	cases := map[string]string{
		"Intel(R) Xeon(R) CPU E5645 @ 2.40GHz": "intel-xeon-cpu-e5645-2.40ghz",
		"NVIDIA H100 80GB HBM3":                "nvidia-h100-80gb-hbm3",
		"  AMD EPYC 7642 48-Core Processor ":   "amd-epyc-7642-48-core",
		"":                                     "unknown",
		"///":                                  "unknown",
	}
	for in, want := range cases {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSetGPUsLabel(t *testing.T) {
	m := Machine{CPU: "Intel Xeon Platinum 8480C", Label: "x"}
	m.SetGPUs(&CUDAInfo{Driver: "13.0"}, []GPU{{Name: "NVIDIA H100 80GB HBM3"}, {Name: "NVIDIA H100 80GB HBM3"}})
	if want := "intel-xeon-platinum-8480c_nvidia-h100-80gb-hbm3-x2"; m.Label != want {
		t.Fatalf("label %q, want %q", m.Label, want)
	}
	h := HostMachine()
	if h.Cores < 1 || h.Label == "" || h.GoVersion == "" {
		t.Fatalf("HostMachine incomplete: %+v", h)
	}
}

// TestCurrentBuildLinkedCommit checks that the commit the Makefile links in
// is the build's commit when the go command stamped none (as in a test
// binary, or a build in a git worktree).
func TestCurrentBuildLinkedCommit(t *testing.T) {
	old := linkedCommit
	defer func() { linkedCommit = old }()
	linkedCommit = "0123abcd+dirty"
	stamped := false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			stamped = stamped || s.Key == "vcs.revision"
		}
	}
	b := CurrentBuild()
	if b.Version != Version {
		t.Errorf("Version = %q, want %q", b.Version, Version)
	}
	if !stamped && b.Commit != linkedCommit {
		t.Errorf("Commit = %q, want the linked %q", b.Commit, linkedCommit)
	}
	if strings.Count(b.Commit, "+dirty") > 1 {
		t.Errorf("Commit = %q: dirty twice", b.Commit)
	}
}

// TestDirtyBuildResumesItsOwnFile: a build stamped "+dirty" (or not
// stamped) carries its executable's digest, so a file it wrote joins its
// own later records (it was refused: two identical "+dirty" strings), and
// another dirty build of the same commit is told apart, in words naming
// both.
func TestDirtyBuildResumesItsOwnFile(t *testing.T) {
	defer func(c string) { linkedCommit = c }(linkedCommit)
	linkedCommit = "a6691d7+dirty"
	b := CurrentBuild()
	if b.Commit != "a6691d7+dirty" || b.Binary == "" {
		t.Fatalf("a dirty build: %+v, want its commit and its executable's digest", b)
	}
	old, run := header("m"), header("m")
	old.Semibench, run.Semibench = b, b
	if why := Unjoinable(old, run); why != "" {
		t.Errorf("the same dirty build is refused its own file: %s", why)
	}
	other := b
	other.Binary = "0123456789abcdef"
	run.Semibench = other
	why := Unjoinable(old, run)
	if !strings.Contains(why, b.Binary) || !strings.Contains(why, other.Binary) {
		t.Errorf("another dirty build of the same commit: %q, want both digests named", why)
	}
	linkedCommit = ""
	if s := (Build{}).String(); !strings.Contains(s, "not stamped") {
		t.Errorf("a build without a commit is named %q", s)
	}
}
