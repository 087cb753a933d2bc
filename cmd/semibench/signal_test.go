//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/semibench/semibench/internal/outfile"
)

// The signal cases of the battery run this test binary again as the
// semibench command (TestMain): cliEnv holds its arguments, separated by
// cliSep; namedEnv makes its outputs named temporaries from the start (the
// path of systems without O_TMPFILE, which a kill leaves behind).
const (
	cliEnv   = "SEMIBENCH_TEST_CLI"
	namedEnv = "SEMIBENCH_TEST_NAMED_TEMPS"
	cliSep   = "\x1f"
)

func TestMain(m *testing.M) {
	historyByDefault = false // toy runs, priced alone, in a repository of real runs
	if args := os.Getenv(cliEnv); args != "" {
		outfile.NamedTemps = os.Getenv(namedEnv) != ""
		os.Args = append([]string{"semibench"}, strings.Split(args, cliSep)...)
		main()
		return
	}
	os.Exit(m.Run())
}

// startCLI starts semibench with args in a process of its own.
func startCLI(t *testing.T, named bool, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), cliEnv+"="+strings.Join(args, cliSep))
	if named {
		cmd.Env = append(cmd.Env, namedEnv+"=1")
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// TestBatterySignals: Ctrl-C (SIGINT) or SIGTERM during a long solve ends
// the command within a second, exit 1, the existing --out untouched and
// nothing left beside it; after a SIGKILL the existing --out is untouched
// too, and the next command writing it removes the temporary the killed
// one left.
func TestBatterySignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts solves of a few seconds")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.mtx")
	if code, _, stderr := capture(t, "gen", "dag", "--n", "2500", "--out", in); code != 0 {
		t.Fatalf("gen dag: %s", stderr)
	}
	solve := func(out string) []string {
		return []string{"solve", "kleene", "--impl", "cpu/paper", "--in", in, "--out", out}
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		outDir := t.TempDir()
		out := filepath.Join(outDir, "out.mtx")
		os.WriteFile(out, []byte(precious), 0o644)
		cmd, stderr := startCLI(t, sig == syscall.SIGTERM, solve(out)...)
		time.Sleep(700 * time.Millisecond)
		t0 := time.Now()
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		took := time.Since(t0)
		if code := cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("%v: exit %d (%v), stderr %q; want 1 and the interruption", sig, code, err, stderr)
		}
		// The issue asks for a second; the margin is for a test machine
		// busy with other packages' tests.
		if took > 2*time.Second {
			t.Errorf("%v: the command took %v to stop, want about a second at most", sig, took)
		}
		t.Logf("%v: stopped %v after the signal", sig, took.Round(time.Millisecond))
		checkUntouched(t, sig.String(), out)
	}
	// SIGKILL with named temporaries: the next writer cleans up.
	outDir := t.TempDir()
	out := filepath.Join(outDir, "out.mtx")
	os.WriteFile(out, []byte(precious), 0o644)
	cmd, _ := startCLI(t, true, solve(out)...)
	time.Sleep(700 * time.Millisecond)
	cmd.Process.Kill()
	cmd.Wait()
	if b, _ := os.ReadFile(out); string(b) != precious {
		t.Errorf("SIGKILL: the existing --out now holds %d bytes", len(b))
	}
	if entries, _ := os.ReadDir(outDir); len(entries) != 2 {
		t.Errorf("SIGKILL: %d entries beside the output, want it and the killed command's temporary", len(entries))
	}
	if code, _, stderr := capture(t, "gen", "lap", "--n", "2", "--out", out); code != 0 {
		t.Fatalf("gen lap after the kill: %s", stderr)
	}
	if entries, _ := os.ReadDir(outDir); len(entries) != 1 {
		t.Errorf("after the next writer: %d entries, want the output alone", len(entries))
	}
}
