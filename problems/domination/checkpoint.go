package domination

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/semibench/semibench/internal/outfile"
	"github.com/semibench/semibench/problems/minplus"
)

// Checkpoints let Algorithm 2 span several processes (device commands of
// bounded length): the current power A^k, its exponent, and the summaries
// of A^1..A^k that the recurrence search reads go to a file; a later run
// given the same file resumes from A^k and ends with the same recurrence,
// γ2 values and witnesses as a run without interruption.
//
// # File format (version 1), all integers little-endian
//
//	offset  size       field
//	0       8          magic "SBDOMCK\x00"
//	8       4          version (1)
//	12      4          m
//	16      8          N, rows of A(D_m)
//	24      8          arcs of D_m (nnz of A(D_m))
//	32      4          k, the exponent of the power stored
//	36      2          length L of the implementation's name
//	38      L          the name of the implementation that wrote it
//	38+L    32·k       the summaries of A^1..A^k, 32 bytes each: Min int16,
//	                   DiagMin int16, DiagArg int32, Finite uint8, 7 zero
//	                   bytes, Hash[0] uint64, Hash[1] uint64
//	...     2·N²       A^k, row-major int16
//	...     8          xxHash64 of every byte before it
//
// Any implementation may resume any implementation's checkpoint (their
// powers are identical); m, N and the arcs must match the run's.

// checkpointMagic opens every checkpoint file.
const checkpointMagic = "SBDOMCK\x00"

// CheckpointVersion is the version of the checkpoint format written and
// read.
const CheckpointVersion = 1

// powerRecordBytes is the size of one power summary in a checkpoint.
const powerRecordBytes = 32

// ErrCheckpointed is returned (wrapped) when Algorithm 2 stopped after
// writing a checkpoint, as Options.StopAfter or Options.Deadline asked: run
// again with the same Options.CheckpointPath to resume.
var ErrCheckpointed = errors.New("algorithm 2 stopped after writing a checkpoint")

// Checkpoint is Algorithm 2's state after A^K: what a checkpoint file
// holds.
type Checkpoint struct {
	M    int
	N    int    // rows of A(D_m)
	NNZ  int    // arcs of D_m
	Impl string // the implementation that wrote it
	// Powers[i] summarises A^i for 1 <= i <= K; Powers[0] is unused.
	Powers []Power
	// Power is A^K, K = len(Powers) - 1.
	Power *minplus.Dense
}

// K returns the exponent of the power held.
func (c *Checkpoint) K() int { return len(c.Powers) - 1 }

// littleEndian reports whether int16 slices are little-endian in memory,
// so that a power is written and read without conversion.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// int16Bytes views s as bytes (native order).
func int16Bytes(s []int16) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s))
}

// writePower writes d little-endian.
func writePower(w io.Writer, d []int16) error {
	if littleEndian {
		_, err := w.Write(int16Bytes(d))
		return err
	}
	buf := make([]byte, 0, 1<<16)
	for i, v := range d {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(v))
		if len(buf) == cap(buf) || i == len(d)-1 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	return nil
}

// readPower fills d from little-endian bytes.
func readPower(r io.Reader, d []int16) error {
	if littleEndian {
		_, err := io.ReadFull(r, int16Bytes(d))
		return err
	}
	buf := make([]byte, 1<<16)
	for lo := 0; lo < len(d); lo += len(buf) / 2 {
		hi := min(len(d), lo+len(buf)/2)
		if _, err := io.ReadFull(r, buf[:2*(hi-lo)]); err != nil {
			return err
		}
		for i := lo; i < hi; i++ {
			d[i] = int16(binary.LittleEndian.Uint16(buf[2*(i-lo):]))
		}
	}
	return nil
}

// checkpointBytes is the size of a checkpoint file.
func checkpointBytes(n, k, nameLen int) int64 {
	return 38 + int64(nameLen) + powerRecordBytes*int64(k) + 2*int64(n)*int64(n) + 8
}

// WriteCheckpoint writes c to path through internal/outfile: to a new
// version beside it, synced, then renamed over path, so that a crash leaves
// the previous checkpoint whole.
func WriteCheckpoint(path string, c *Checkpoint) error {
	k := c.K()
	if k < 1 || c.Power == nil || c.Power.N != c.N || len(c.Power.Data) != c.N*c.N {
		return fmt.Errorf("domination: checkpoint %s: needs A^k (k >= 1, %d x %d) and its summaries", path, c.N, c.N)
	}
	if len(c.Impl) > 1<<16-1 {
		return fmt.Errorf("domination: checkpoint %s: implementation name of %d bytes", path, len(c.Impl))
	}
	err := outfile.Write(context.Background(), path, func(bw *bufio.Writer) error { return writeCheckpoint(bw, c) })
	if err != nil {
		return fmt.Errorf("domination: checkpoint: %w", err)
	}
	return nil
}

// writeCheckpoint writes c's bytes to bw.
func writeCheckpoint(bw *bufio.Writer, c *Checkpoint) error {
	k := c.K()
	h := xxhash.New()
	w := io.MultiWriter(bw, h)
	le := binary.LittleEndian
	head := []byte(checkpointMagic)
	head = le.AppendUint32(head, CheckpointVersion)
	head = le.AppendUint32(head, uint32(c.M))
	head = le.AppendUint64(head, uint64(c.N))
	head = le.AppendUint64(head, uint64(c.NNZ))
	head = le.AppendUint32(head, uint32(k))
	head = le.AppendUint16(head, uint16(len(c.Impl)))
	head = append(head, c.Impl...)
	for _, p := range c.Powers[1:] {
		head = le.AppendUint16(head, uint16(p.Min))
		head = le.AppendUint16(head, uint16(p.DiagMin))
		head = le.AppendUint32(head, uint32(p.DiagArg))
		fin := byte(0)
		if p.Finite {
			fin = 1
		}
		head = append(head, fin, 0, 0, 0, 0, 0, 0, 0)
		head = le.AppendUint64(head, p.Hash[0])
		head = le.AppendUint64(head, p.Hash[1])
	}
	_, err := w.Write(head)
	if err == nil {
		err = writePower(w, c.Power.Data)
	}
	if err == nil {
		_, err = bw.Write(le.AppendUint64(nil, h.Sum64()))
	}
	return err
}

// ReadCheckpoint reads the checkpoint at path for A(D_m) with n rows and
// nnz arcs, refusing a file that is not a checkpoint, of another version,
// of another m, N or arc count, of the wrong size, or whose checksum does
// not match its contents.
func ReadCheckpoint(path string, m, n, nnz int) (*Checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("domination: checkpoint: %w", err)
	}
	defer f.Close()
	fail := func(format string, args ...any) (*Checkpoint, error) {
		return nil, fmt.Errorf("domination: checkpoint %s: "+format, append([]any{path}, args...)...)
	}
	info, err := f.Stat()
	if err != nil {
		return fail("%w", err)
	}
	h := xxhash.New()
	r := io.TeeReader(bufio.NewReaderSize(f, 1<<20), h)
	var head [38]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return fail("header: %w", err)
	}
	if string(head[:8]) != checkpointMagic {
		return fail("not a domination checkpoint (magic %q)", head[:8])
	}
	le := binary.LittleEndian
	if v := le.Uint32(head[8:]); v != CheckpointVersion {
		return fail("format version %d, this build reads version %d", v, CheckpointVersion)
	}
	c := &Checkpoint{M: int(le.Uint32(head[12:])), N: int(le.Uint64(head[16:])), NNZ: int(le.Uint64(head[24:]))}
	k := int(le.Uint32(head[32:]))
	if c.M != m || c.N != n || c.NNZ != nnz {
		return fail("is for m = %d (N = %d, %d arcs), this run is m = %d (N = %d, %d arcs)", c.M, c.N, c.NNZ, m, n, nnz)
	}
	if k < 1 {
		return fail("holds power A^%d", k)
	}
	name := make([]byte, le.Uint16(head[36:]))
	if want := checkpointBytes(n, k, len(name)); info.Size() != want {
		return fail("%d bytes, want %d for A^%d of order %d (truncated or corrupt)", info.Size(), want, k, n)
	}
	if _, err := io.ReadFull(r, name); err != nil {
		return fail("header: %w", err)
	}
	c.Impl = string(name)
	recs := make([]byte, powerRecordBytes*k)
	if _, err := io.ReadFull(r, recs); err != nil {
		return fail("power summaries: %w", err)
	}
	c.Powers = make([]Power, k+1)
	for i := 1; i <= k; i++ {
		b := recs[powerRecordBytes*(i-1):]
		c.Powers[i] = Power{Min: int16(le.Uint16(b)), DiagMin: int16(le.Uint16(b[2:])), DiagArg: int32(le.Uint32(b[4:])),
			Finite: b[8] == 1, Hash: [2]uint64{le.Uint64(b[16:]), le.Uint64(b[24:])}}
	}
	c.Power = &minplus.Dense{N: n, Data: make([]int16, n*n)}
	if err := readPower(r, c.Power.Data); err != nil {
		return fail("power A^%d: %w", k, err)
	}
	sum := h.Sum64()
	var tail [8]byte
	if _, err := io.ReadFull(r, tail[:]); err != nil {
		return fail("checksum: %w", err)
	}
	if got := le.Uint64(tail[:]); got != sum {
		return fail("checksum %016x, contents hash to %016x: the file is corrupt", got, sum)
	}
	return c, nil
}

// checkpointing holds what Algorithm 2 needs to write checkpoints and stop.
type checkpointing struct {
	path     string
	every    int
	after    int
	deadline time.Time
	from     int // the power resumed from (0: none)
}

// due reports whether to write a checkpoint of A^i, and whether to stop
// after it. last says the loop ends after A^i anyway (nothing to resume).
func (c *checkpointing) due(i int, last bool) (write, stop bool) {
	if c == nil || c.path == "" || last || i <= c.from {
		return false, false
	}
	stop = c.after > 0 && i == c.after || !c.deadline.IsZero() && !time.Now().Before(c.deadline)
	return stop || c.every > 0 && i%c.every == 0, stop
}

// replay starts an.Powers for Algorithm 2: empty, or with a checkpoint's
// summaries of A^1..A^(k-1) recorded again (the repetition search's state
// rebuilt as it was), A^k being recorded by the loop that resumes there.
// It returns the fingerprints seen.
func (an *Analysis) replay(resume *Checkpoint, K int) map[[2]uint64]int {
	an.Powers = make([]Power, 1, K+1)
	seen := map[[2]uint64]int{}
	if resume != nil {
		for _, p := range resume.Powers[1:resume.K()] {
			an.record(p, seen)
		}
	}
	return seen
}

// checkResumed holds the summary of the power a run resumed from, as this
// run computes it from the power it read, to the one the checkpoint
// recorded for it.
func (an *Analysis) checkResumed(resume *Checkpoint, i int, p Power) error {
	if resume == nil || i != resume.K() || p == resume.Powers[i] {
		return nil
	}
	return fmt.Errorf("domination: m = %d: checkpoint %s: A^%d summarises to %+v, but the checkpoint recorded %+v",
		an.M, an.ckpt.path, i, p, resume.Powers[i])
}

// checkpoint writes a checkpoint of A^i when one is due (power fetches the
// power), and returns ErrCheckpointed, wrapped, when the run is to stop
// there. last says the loop ends after A^i anyway.
func (an *Analysis) checkpoint(i int, last bool, power func() (*minplus.Dense, error)) error {
	write, stop := an.ckpt.due(i, last)
	if !write {
		return nil
	}
	d, err := power()
	if err != nil {
		return fmt.Errorf("domination: m = %d: checkpoint of A^%d: %w", an.M, i, err)
	}
	c := &Checkpoint{M: an.M, N: an.N, NNZ: an.NNZ, Impl: an.Impl, Powers: an.Powers[:i+1], Power: d}
	if err := WriteCheckpoint(an.ckpt.path, c); err != nil {
		return err
	}
	if stop {
		return fmt.Errorf("domination: m = %d: %w: A^%d written to %s; run again with the same checkpoint to resume", an.M, ErrCheckpointed, i, an.ckpt.path)
	}
	return nil
}
