// Package digest computes the content digests that result files record for
// their inputs. A digest must cost little beside the solve it labels, on
// every machine and in every build: it is xxHash64 over fixed chunks hashed
// in parallel, then xxHash64 over the chunks' sums and the length. xxHash64
// runs on integer instructions only: SHA-256's SHA-NI code is legacy SSE,
// which on Intel pays the AVX-SSE transition penalty whenever the upper
// vector state is dirty (as the GOEXPERIMENT=simd runtime leaves it after
// an asynchronous preemption). The chunk size
// is fixed, so the digest of the same bytes is the same whatever the core
// count.
package digest

import (
	"encoding/binary"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/cespare/xxhash/v2"
)

// Prefix names the digest in result files ("xxh64c:" then 16 hex digits).
const Prefix = "xxh64c:"

// chunk is the bytes one worker hashes at a time.
const chunk = 4 << 20

// Sum returns the digest of the little-endian bytes of the slices, in
// order, as if they were one stream.
func Sum(parts ...[]byte) string {
	var total int
	for _, p := range parts {
		total += len(p)
	}
	// The chunks of the concatenation, without copying: each chunk is a
	// list of pieces of the parts.
	type piece struct {
		part, from, to int
	}
	nch := (total + chunk - 1) / chunk
	sums := make([]byte, 8*nch+8)
	pieces := make([][]piece, nch)
	k, fill := 0, 0
	for i, p := range parts {
		for off := 0; off < len(p); {
			n := min(len(p)-off, chunk-fill)
			pieces[k] = append(pieces[k], piece{i, off, off + n})
			off += n
			fill += n
			if fill == chunk {
				k, fill = k+1, 0
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), nch)
	var wg sync.WaitGroup
	var next sync.Mutex
	c := 0
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := xxhash.New()
			for {
				next.Lock()
				j := c
				c++
				next.Unlock()
				if j >= nch {
					return
				}
				d.Reset()
				for _, pc := range pieces[j] {
					d.Write(parts[pc.part][pc.from:pc.to])
				}
				binary.LittleEndian.PutUint64(sums[8*j:], d.Sum64())
			}
		}()
	}
	wg.Wait()
	binary.LittleEndian.PutUint64(sums[8*nch:], uint64(total))
	return fmt.Sprintf("%s%016x", Prefix, xxhash.Sum64(sums))
}

// Number is the element types a digest reads as little-endian bytes.
type Number interface {
	~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~float32 | ~float64
}

// Bytes returns the little-endian bytes of s: s's own memory on a
// little-endian machine, a converted copy on a big-endian one.
func Bytes[T Number](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	size := int(unsafe.Sizeof(s[0]))
	raw := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*size)
	if littleEndian {
		return raw
	}
	out := make([]byte, len(raw))
	for i := 0; i < len(raw); i += size {
		for b := range size {
			out[i+b] = raw[i+size-1-b]
		}
	}
	return out
}

// Of returns the digest of one slice's little-endian bytes.
func Of[T Number](s []T) string { return Sum(Bytes(s)) }

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
