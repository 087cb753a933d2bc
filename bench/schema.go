package bench

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// SchemaVersion is the version of the result-file format written by this
// package: 3, JSON Lines (a header line, then a record a line; see
// ReadFile). Schemas 1 and 2 are one indented JSON document each, still
// read. Readers refuse files of a newer version.
const SchemaVersion = 3

// ProtocolVersion is the timing protocol of the records this semibench
// measures: 2, the protocol of schema 2 (total is the host clock around
// the whole solve). Protocol 1 is schema 1's, whose totals timed another
// window.
const ProtocolVersion = 2

// Statistic names how a phase's Stat value was derived from its samples.
const (
	StatMedian = "median"        // the median of all samples
	StatMid3   = "mean-middle-3" // the mean of the middle three of five (sorted) samples
	StatPaper  = "paper"         // transcribed from a paper; no samples
)

// Record statuses.
const (
	StatusOK          = "ok"           // ran, and its check passed
	StatusCheckFailed = "check-failed" // ran, but its output failed the check
	StatusFailed      = "failed"       // an error stopped it; Error says why
	StatusSkipped     = "skipped"      // not run: its estimate exceeded the budget
	StatusUnavailable = "unavailable"  // its backend is absent on this machine
)

// File is one result file: a run session on one machine, or a paper's table.
type File struct {
	Schema int `json:"schema"`
	// Protocol is the timing protocol of the records (1 or 2), in
	// schema-3 headers; see TimingProtocol.
	Protocol  int       `json:"protocol,omitempty"`
	Semibench Build     `json:"semibench"`
	Machine   Machine   `json:"machine"`
	Started   time.Time `json:"started"`
	Scale     string    `json:"scale,omitempty"`
	// Budget is the run's --budget (a Go duration), empty when unlimited.
	Budget string `json:"budget,omitempty"`
	// Source names where a paper's numbers were transcribed from (paper file,
	// table and page); empty for measured runs.
	Source string `json:"source,omitempty"`
	// Memory is the host memory limit the run planned its cells by.
	Memory *MemoryLimit `json:"memory,omitempty"`
	// Shard is the run's share of a sharded plan ("2/4"), empty when whole.
	Shard string `json:"shard,omitempty"`
	// Seed is the generator seed of the run (run's --seed): every
	// generated input of its records comes from it (or from it plus an
	// index, as the experiment says). 0 where none was recorded: files
	// written before it was, papers' tables and peers files.
	Seed    uint64   `json:"seed,omitempty"`
	Notes   []string `json:"notes,omitempty"`
	Records []Record `json:"records,omitempty"`
	// Torn is the last line of a schema-3 file left incomplete by an
	// interrupted writer, which the reader dropped; nil when none.
	Torn *Torn `json:"-"`
	// LeftOut names the records a reader set aside because this semibench
	// cannot place them in any table ("line N: why"), so that what it
	// renders can say how many; never written.
	LeftOut []string `json:"-"`
	// lines are the lines of Records in a schema-3 file as read.
	lines []int
}

// RecordPlace names where record i was read: "line N" in a schema-3 file
// as read, else "record i" (0-based, as the validation's messages count).
func (f *File) RecordPlace(i int) string {
	if i < len(f.lines) && len(f.lines) == len(f.Records) {
		return fmt.Sprintf("line %d", f.lines[i])
	}
	return fmt.Sprintf("record %d", i)
}

// TimingProtocol is the protocol the file's records were timed under:
// Protocol where the header says it, else the schema's own (1 or 2).
func (f *File) TimingProtocol() int {
	if f.Protocol != 0 {
		return f.Protocol
	}
	return min(f.Schema, ProtocolVersion)
}

// MemoryLimit is the host memory a run may fill and where the figure comes
// from ("flag", "cgroup v2 memory.max", "MemTotal", ...).
type MemoryLimit struct {
	Bytes  uint64 `json:"bytes"`
	Source string `json:"source"`
}

// Build identifies the semibench binary that wrote a file.
type Build struct {
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	// Binary is the digest of the executable (CurrentBuild), for a build
	// whose commit is missing or "+dirty"; empty otherwise.
	Binary string `json:"binary,omitempty"`
}

// Machine describes the computer a file was measured on.
type Machine struct {
	// Label is a short name used for folders and column headings,
	// e.g. "xeon-e5645" or the host's CPU model condensed.
	Label       string `json:"label"`
	CPU         string `json:"cpu"`
	Cores       int    `json:"cores"`
	MemoryBytes uint64 `json:"memory_bytes,omitempty"`
	OS          string `json:"os,omitempty"`
	Arch        string `json:"arch,omitempty"`
	GoVersion   string `json:"go_version,omitempty"`
	Hostname    string `json:"hostname,omitempty"`
	GPUs        []GPU  `json:"gpus,omitempty"`
	// CUDA describes the GPU software stack; nil when no driver was found.
	CUDA *CUDAInfo `json:"cuda,omitempty"`
	// CPUKernel names the inner kernels the CPU implementations run with in
	// this binary on this CPU: "go" (plain Go), "avx2" or "avx512" (vector
	// kernels of a GOEXPERIMENT=simd build, chosen at start-up by the CPU's
	// features), or one per package when they differ. Empty in files
	// written before it was recorded.
	CPUKernel string `json:"cpu_kernel,omitempty"`
}

// GPU describes one CUDA device.
type GPU struct {
	Index             int    `json:"index"`
	Name              string `json:"name"`
	ComputeCapability string `json:"compute_capability"`
	SMs               int    `json:"sms,omitempty"`
	MemoryBytes       uint64 `json:"memory_bytes,omitempty"`
	ClockMHz          int    `json:"clock_mhz,omitempty"`
	MemoryClockMHz    int    `json:"memory_clock_mhz,omitempty"`
	MemoryBusBits     int    `json:"memory_bus_bits,omitempty"`
}

// CUDAInfo describes the driver, the run-time compiler and the kernel path.
type CUDAInfo struct {
	Driver string `json:"driver,omitempty"` // driver API version, e.g. "13.0"
	NVRTC  string `json:"nvrtc,omitempty"`  // NVRTC version, empty when absent
	// KernelPath is "nvrtc" when kernels are compiled at run time for the
	// device, or "fallback-ptx" when the embedded PTX is JIT-compiled.
	KernelPath string `json:"kernel_path,omitempty"`
	Error      string `json:"error,omitempty"` // why CUDA is unavailable, if it is
}

// Param is one named parameter of a cell, kept in the experiment's order.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Params is an ordered parameter list.
type Params []Param

// Get returns the value of the named parameter, or "" when absent.
func (p Params) Get(name string) string {
	for _, q := range p {
		if q.Name == name {
			return q.Value
		}
	}
	return ""
}

// String renders the parameters as "a=1,b=2" in their order; it is the key
// used to align records across files.
func (p Params) String() string {
	parts := make([]string, len(p))
	for i, q := range p {
		parts[i] = q.Name + "=" + q.Value
	}
	return strings.Join(parts, ",")
}

// Input describes the instance a record was measured on.
type Input struct {
	Generator   string `json:"generator"`
	Seed        uint64 `json:"seed"`
	Hash        string `json:"hash,omitempty"` // content hash of the generated bytes
	Description string `json:"description,omitempty"`
}

// Phase is one named phase of an implementation, with every sample kept.
type Phase struct {
	Name string `json:"name"`
	// Scope says what the phase is a part of: ScopeHeadline (total and
	// end_to_end), ScopeTotal (the breakdown of total, other included) or
	// ScopeEndToEnd (outside total, inside end_to_end). Empty in files of
	// schema 1 and in papers' tables.
	Scope     string    `json:"scope,omitempty"`
	SamplesMS []float64 `json:"samples_ms,omitempty"`
	MedianMS  float64   `json:"median_ms"`
	// StatMS is the record's Statistic applied to the samples (or the
	// paper's number for transcribed files).
	StatMS float64 `json:"stat_ms"`
}

// Check is the correctness verdict saved beside a timing.
type Check struct {
	OK     bool    `json:"ok"`
	Method string  `json:"method"`           // what was compared with what
	Detail string  `json:"detail,omitempty"` // the first disagreement, or a summary
	MaxErr float64 `json:"max_err,omitempty"`
	Bound  float64 `json:"bound,omitempty"`
}

// Record is one cell: an (experiment, implementation, parameters) triple.
type Record struct {
	Experiment string             `json:"experiment"`
	Impl       string             `json:"impl"`
	Params     Params             `json:"params"`
	Status     string             `json:"status"`
	Error      string             `json:"error,omitempty"`
	Input      *Input             `json:"input,omitempty"`
	Statistic  string             `json:"statistic,omitempty"`
	Phases     []Phase            `json:"phases,omitempty"`
	Check      *Check             `json:"check,omitempty"`
	Metrics    map[string]float64 `json:"metrics,omitempty"`
	// EstimateMS is the time the planner budgeted for the cell before it
	// ran, or, for a skipped cell, the estimate it was skipped for: its
	// EstimateWallMS where that is recorded, in older files its warm-up
	// and timed runs together.
	EstimateMS float64 `json:"estimate_ms,omitempty"`
	// EstimateRunMS is the planner's estimate of one run of the cell, the
	// figure its cost model gives (EstimateMS counts the runs planned).
	EstimateRunMS float64 `json:"estimate_run_ms,omitempty"`
	// EstimateWallMS is the planner's estimate, made before the cell ran,
	// of the cell's whole wall time: its case's setup where this cell pays
	// it (generation, digest, reference), the warm-up and timed runs with
	// whatever the implementation does between its windows, the stopping
	// rules' looks between samples, and the check: what Wall measures. A
	// topped-up record's is the earlier record's estimate plus the
	// top-up's, as its Wall adds both up. 0 in files written before it was
	// recorded.
	EstimateWallMS float64 `json:"estimate_wall_ms,omitempty"`
	// Basis says what the estimates rest on: the experiment's prior, this
	// machine's measurements ("fit to 3 cells of cpu/jv up to n=4096"),
	// or the cell's earlier runs on this machine kind.
	Basis string `json:"basis,omitempty"`
	// Stop says why the timed repetitions stopped where they did: the
	// claims the cell feeds were settled, the --reps maximum, one long run.
	Stop string `json:"stop,omitempty"`
	// WarmupMS are the totals of the warm-up runs, which no statistic
	// reads: kept to measure what a warm-up changes.
	WarmupMS []float64 `json:"warmup_ms,omitempty"`
	Finished time.Time `json:"finished,omitzero"`
	// Note carries remarks such as garbled source numbers in paper files.
	Note string `json:"note,omitempty"`
	// ReusedFrom names, by its Key (experiment|impl|params), the cell of
	// the same run whose work this cell read instead of doing it again
	// (the powers of A(D_m) one cell computed and several tables read).
	// The cell's phases then say what was measured: either only what this
	// cell added to the work it read, or, where its timed window is exactly
	// that work, the samples measured in the named cell, copied. The
	// experiment's doc comments say which. A cell another experiment
	// shares (experiments.SameAs) is not run at all: its record is a copy
	// of the measuring cell's. Empty: the cell did all its work itself.
	ReusedFrom string `json:"reused_from,omitempty"`
	// Wall is where the cell's wall time went, for the harness's own
	// accounting; nil in papers' files and files written before it.
	Wall *CellWall `json:"wall,omitempty"`
	// Replicates are the cell measured again at the outer level of noise
	// (Kalibera and Jones: executions, not iterations), each in a fresh
	// process or on fresh allocations, interleaved with the other cells of
	// the claims it feeds; the two-level verdict reads them, the tables
	// read Phases. nil when the cell was not sampled at the outer level.
	Replicates []Replicate `json:"replicates,omitempty"`
	// GPU is the GPU state around a GPU cell (clocks, temperature, power,
	// throttle reasons at its start and end and per repetition); nil for
	// CPU cells and files written before it was recorded.
	GPU *GPUCellState `json:"gpu,omitempty"`
}

// Replicate is one outer-level measurement of a cell: its phases, with
// every sample, measured in a fresh process (Level "process") or on fresh
// allocations in the run's own process (Level "allocation").
type Replicate struct {
	Level  string  `json:"level"`
	Phases []Phase `json:"phases"`
	// WallMS is the replicate's whole wall time: its start (a process's
	// start, a fresh setup), its runs and its check.
	WallMS float64 `json:"wall_ms,omitempty"`
}

// The levels of a Replicate.
const (
	LevelProcess    = "process"    // a fresh process of the same binary
	LevelAllocation = "allocation" // a fresh setup of the case in the run's process
)

// CellWall splits one cell's wall time: the setup of its case (generation,
// digest, reference; zero when an earlier cell of the case did it), the
// measurement (warm-up and timed runs, with whatever the implementation
// does between its windows), the timed windows themselves (the samples of
// end_to_end, or of total where there is none), and the check. PeakRSS is
// the process's peak resident memory when the cell ended.
type CellWall struct {
	SetupMS   float64 `json:"setup_ms"`
	MeasureMS float64 `json:"measure_ms"`
	TimedMS   float64 `json:"timed_ms"`
	CheckMS   float64 `json:"check_ms"`
	PeakRSS   uint64  `json:"peak_rss,omitempty"`
	// CPUMS is the CPU time the process used during MeasureMS, all its
	// threads (CPUMS / MeasureMS: the cores the cell kept busy); absent
	// where the system gives none, or where other cells ran beside it.
	CPUMS float64 `json:"cpu_ms,omitempty"`
	// Runs is how many runs MeasureMS holds: the warm-ups and timed
	// samples, of every measurement of a topped-up record. 0 in files
	// written before it was recorded.
	Runs int `json:"runs,omitempty"`
	// FirstRunMS is the wall time of the cell's first run (its warm-up,
	// when it had one), whole: what loading the implementation's code (a
	// CUDA module, the first time in a process) or cold data costs beyond
	// the later runs shows there.
	FirstRunMS float64 `json:"first_run_ms,omitempty"`
	// LooksMS is the part of MeasureMS the stopping rules took between
	// the samples: the settle rule judging the claims the cell feeds.
	LooksMS float64 `json:"looks_ms,omitempty"`
}

// Key aligns records across files: experiment, implementation, parameters.
func (r *Record) Key() string {
	return r.Experiment + "|" + r.Impl + "|" + r.Params.String()
}

// Phase returns the named phase, or nil.
func (r *Record) Phase(name string) *Phase {
	for i := range r.Phases {
		if r.Phases[i].Name == name {
			return &r.Phases[i]
		}
	}
	return nil
}

// Validate reports the first problem of a file: its structure, and the
// times of each record (see validateRecord), naming the record (0-based).
func (f *File) Validate() error {
	if err := f.validateHeader(); err != nil {
		return err
	}
	for i := range f.Records {
		if err := checkRecord(i, &f.Records[i]); err != nil {
			return err
		}
	}
	return nil
}

// validateHeader checks the schema and protocol versions.
func (f *File) validateHeader() error {
	switch {
	case f.Schema == 0:
		return errors.New("no \"schema\": not a semibench result file's header")
	case f.Schema < 1:
		return fmt.Errorf("schema version %d not supported (this semibench reads 1..%d)", f.Schema, SchemaVersion)
	case f.Schema > SchemaVersion:
		return fmt.Errorf("schema version %d, written by a newer semibench: this one reads 1..%d (read it with that newer semibench; `semibench convert` only turns schemas 1 and 2 into %d)", f.Schema, SchemaVersion, SchemaVersion)
	}
	if p := f.Protocol; p != 0 && (f.Schema < 3 || p > ProtocolVersion || p < 1) {
		return fmt.Errorf("schema %d with timing protocol %d: not supported (protocols 1..%d, named in schema-3 headers)", f.Schema, p, ProtocolVersion)
	}
	return nil
}

// checkHeader checks, as a file is read, that its header says what the
// readers need: the machine (label, CPU model and, for a measured file,
// its cores), for a measured file the build that wrote it, and, for a
// run, its scale (one of Scales) and start. A paper's
// transcription (Source) names the paper's machine and scale as the paper
// gives them; a peers file (PeersNote) measures given instances at no
// scale of ours.
func (f *File) checkHeader() error {
	m := f.Machine
	var missing []string
	if m.Label == "" {
		missing = append(missing, "the machine's label")
	}
	if m.CPU == "" {
		missing = append(missing, "its CPU model")
	}
	if m.Cores <= 0 && f.Source == "" {
		missing = append(missing, "its cores")
	}
	if f.Source == "" && f.Semibench.Version == "" {
		missing = append(missing, "the build (\"semibench\": its version)")
	}
	if f.Source == "" && !f.IsPeers() {
		if f.Scale == "" {
			missing = append(missing, "the scale")
		}
		if f.Started.IsZero() {
			missing = append(missing, "the start time")
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("lacks %s: a damaged file, or not one semibench wrote", strings.Join(missing, ", "))
	}
	if f.Source == "" && !f.IsPeers() && !slices.Contains(Scales, f.Scale) {
		return fmt.Errorf("scale %q is none of semibench's (%s): a damaged file, or not one semibench wrote", f.Scale, strings.Join(Scales, ", "))
	}
	return nil
}

// Scales are the scales a run's header may name: experiments.Scales, by
// name (a test holds the two lists equal).
var Scales = []string{"quick", "paper", "large"}

// PeersNote is the first note of a file `semibench peers record` writes:
// published codes measured on given instances, at no scale of ours.
const PeersNote = "semibench peers record: published codes measured on this machine by the scripts of results/peers/README.md"

// IsPeers reports whether f holds peers' measurements (its first note is
// PeersNote).
func (f *File) IsPeers() bool { return len(f.Notes) > 0 && f.Notes[0] == PeersNote }

// checkRecord checks record i: its key, status and times.
func checkRecord(i int, r *Record) error {
	if r.Experiment == "" || r.Impl == "" {
		return fmt.Errorf("record %d: experiment and impl are required", i)
	}
	switch r.Status {
	case StatusOK, StatusCheckFailed, StatusFailed, StatusSkipped, StatusUnavailable:
	default:
		return fmt.Errorf("record %d (%s): unknown status %q", i, r.Key(), r.Status)
	}
	return validateRecord(i, r)
}
