//go:build unix

package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// The fault tests run this test binary again as a writer (as os/exec's
// tests do): SEMIBENCH_FAULT_FILE names the result file and
// SEMIBENCH_FAULT_MODE what to do with it.
const (
	faultFileEnv = "SEMIBENCH_FAULT_FILE"
	faultModeEnv = "SEMIBENCH_FAULT_MODE"
	faultLabel   = "fault"
	faultMax     = 20000 // records a writer appends at most, then waits to be killed
)

// faultRecord is the i-th record of the fault tests' sequence.
func faultRecord(i int) Record {
	return Record{Experiment: "fault", Impl: "cpu/x", Params: Params{{"seq", strconv.Itoa(i)}}, Status: StatusOK,
		Phases: []Phase{{Name: TotalPhase, SamplesMS: []float64{1.5, 2.5, 3.5, 4.5, 5.5}, MedianMS: 3.5, StatMS: 3.5}}}
}

// TestFaultHelperProcess is the writer the fault tests start and kill; run
// directly it does nothing.
func TestFaultHelperProcess(t *testing.T) {
	path := os.Getenv(faultFileEnv)
	if path == "" {
		t.Skip("the writer process of the fault tests")
	}
	a, err := NewAppender(path, header(faultLabel))
	switch os.Getenv(faultModeEnv) {
	case "open": // exit 3 when refused as in use
		if errors.Is(err, ErrInUse) {
			fmt.Println(err)
			os.Exit(3)
		}
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		a.Close()
		os.Exit(0)
	case "append": // append the sequence from where the file stands
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i := len(a.File().Records); i < faultMax; i++ {
			if err := a.Append(faultRecord(i)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		time.Sleep(time.Minute)
	}
	os.Exit(2)
}

// faultWriter starts the writer process on path.
func faultWriter(t *testing.T, path, mode string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFaultHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), faultFileEnv+"="+path, faultModeEnv+"="+mode)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// envInt reads a positive integer from the environment, or def.
func envInt(t *testing.T, name string, def uint64) uint64 {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == 0 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// checkSequence checks that f is a fault writer's file holding a prefix of
// the record sequence.
func checkSequence(f *File) error {
	if f.Machine.Label != faultLabel {
		return fmt.Errorf("machine %q", f.Machine.Label)
	}
	for i, r := range f.Records {
		if r.Params.Get("seq") != strconv.Itoa(i) {
			return fmt.Errorf("record %d has seq %s: not a prefix of the sequence", i, r.Params.Get("seq"))
		}
	}
	return nil
}

// TestAppenderSurvivesSIGKILL kills a writer at random moments, seeded
// (SEMIBENCH_FAULT_SEED, default 1), SEMIBENCH_FAULT_ROUNDS times (default
// 20, 8 with -short). After each kill the file must read as a result file
// holding a prefix of the writer's records, no fewer than before (a torn
// last line dropped with its line number); and the next writer must get
// the lock, cut the torn line off and see exactly those records.
func TestAppenderSurvivesSIGKILL(t *testing.T) {
	def := uint64(20)
	if testing.Short() {
		def = 8
	}
	rounds := envInt(t, "SEMIBENCH_FAULT_ROUNDS", def)
	seed := envInt(t, "SEMIBENCH_FAULT_SEED", 1)
	rng := rand.New(rand.NewPCG(seed, 0))
	path := filepath.Join(t.TempDir(), "run.jsonl")
	held, grew, torn := 0, 0, 0
	for round := range rounds {
		cmd, out := faultWriter(t, path, "append")
		time.Sleep(time.Duration(rng.Int64N(int64(80 * time.Millisecond))))
		cmd.Process.Kill()
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("round %d: the writer ended before the kill (%v): %s", round, cmd.ProcessState, out)
		}
		where := fmt.Sprintf("round %d (seed %d)", round, seed)

		f, err := ReadFile(path)
		switch {
		case held == 0 && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNotResultFile)):
			// killed before it created the file, or wrote its header
		case err != nil:
			t.Fatalf("%s: the file after the kill: %v", where, err)
		default:
			if err := checkSequence(f); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if len(f.Records) < held {
				t.Fatalf("%s: %d records, fewer than the %d before", where, len(f.Records), held)
			}
			if len(f.Records) > held {
				grew++
			}
			if f.Torn != nil {
				torn++
				if want := len(f.Records) + 2; f.Torn.Line != want {
					t.Fatalf("%s: torn line %d, want %d (after the header and %d records)", where, f.Torn.Line, want, len(f.Records))
				}
			}
			held = len(f.Records)
		}

		// The next writer: the killed one's lock is gone, and so is its
		// torn line.
		a, err := NewAppender(path, header(faultLabel))
		if err != nil {
			t.Fatalf("%s: the next writer: %v", where, err)
		}
		if got := len(a.File().Records); got != held {
			t.Fatalf("%s: the next writer sees %d records, want %d", where, got, held)
		}
		a.Close()
		if f, err := ReadFile(path); err != nil || f.Torn != nil {
			t.Fatalf("%s: after the next writer opened it: %v (torn %v)", where, err, f.Torn)
		}
	}
	if grew < int(rounds)/4 {
		t.Fatalf("only %d of %d kills came after new records: the test exercised too little", grew, rounds)
	}
	t.Logf("%d kills, %d records kept, %d rounds added records, %d left a torn line", rounds, held, grew, torn)
}

func TestAppenderLockAcrossProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	a, err := NewAppender(path, header(faultLabel))
	if err != nil {
		t.Fatal(err)
	}
	a.Append(faultRecord(0))
	cmd, out := faultWriter(t, path, "open")
	if err := cmd.Wait(); cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("another process opening a held file: %v, %s; want it refused as in use", err, out)
	}
	a.Close()
	cmd, out = faultWriter(t, path, "open")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("another process after Close: %v, %s", err, out)
	}
}

// TestAppenderLockHandover tries to open a file while its writer appends:
// every try must be refused until the writer is done.
func TestAppenderLockHandover(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.jsonl")
	a, err := NewAppender(path, header(faultLabel))
	if err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	errc := make(chan error, 1)
	go func() {
		var err error
		for i := 0; i < 40 && err == nil; i++ {
			err = a.Append(faultRecord(i))
		}
		done.Store(true)
		errc <- err
	}()
	tries := 0
	for ; !done.Load(); tries++ {
		b, err := NewAppender(path, header(faultLabel))
		if err == nil {
			b.Close()
			if !done.Load() {
				t.Fatalf("try %d: a second writer got the file while the first appended", tries)
			}
		} else if !errors.Is(err, ErrInUse) {
			t.Fatalf("try %d: %v", tries, err)
		}
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	a.Close()
	t.Logf("%d refused tries", tries)
}
