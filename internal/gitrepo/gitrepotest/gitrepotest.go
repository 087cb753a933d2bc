// Package gitrepotest makes throwaway git repositories for tests of the
// code that reads a repository's history.
package gitrepotest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// New makes a repository (branch main) in a temporary folder and returns
// its folder and a function that runs git there, failing the test on an
// error and returning git's output trimmed. The commits' author and
// committer are fixed and the user's git configuration is not read, so
// that the repository is the same on every machine. The test is skipped
// where git is absent.
func New(t testing.TB) (dir string, git func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir = t.TempDir()
	git = func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	return dir, git
}
