package cuda

import (
	"fmt"
	"testing"

	"github.com/semibench/semibench/impls/cuda/driver"
)

// BenchmarkRoundTrips times the driver round trips a solve's phases are
// made of, one kind a sub-benchmark (ns/op), on an idle device: the free
// memory query, an event recorded and waited for, a stream synchronized,
// a 4-byte and a 4 MiB download and upload through the staging ring, the
// upload's two stages apart (the host copy into a page-locked chunk, in
// parallel and on one core, and the copy engine's move of it), and
// Device.Run's hand-over to the device's thread. None asserts a time.
func BenchmarkRoundTrips(b *testing.B) {
	if _, err := DeviceCount(); err != nil {
		b.Skip("no CUDA device")
	}
	d, err := Open(0)
	if err != nil {
		b.Fatal(err)
	}
	in := func(b *testing.B, f func(t *driver.Thread) error) {
		err := d.Run(b.Context(), func(t *driver.Thread) error {
			if err := f(t); err != nil { // warm-up: buffers and staging
				return err
			}
			for b.Loop() {
				if err := f(t); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	var ev driver.Event
	small, big := make([]int32, 1), make([]int32, 1<<20)
	var buf driver.DevicePtr
	err = d.Run(b.Context(), func(t *driver.Thread) error {
		var err error
		if ev, err = t.EventCreate(driver.EventDefault); err != nil {
			return err
		}
		buf, err = d.Buffer(t, "roundtrip", 4<<20)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("MemGetInfo", func(b *testing.B) {
		in(b, func(t *driver.Thread) error { _, _, err := t.MemGetInfo(); return err })
	})
	b.Run("EventRecordSynchronize", func(b *testing.B) {
		in(b, func(t *driver.Thread) error {
			if err := t.EventRecord(ev, d.Stream()); err != nil {
				return err
			}
			return t.EventSynchronize(ev)
		})
	})
	b.Run("StreamSynchronize", func(b *testing.B) {
		in(b, func(t *driver.Thread) error { return t.StreamSynchronize(d.Stream()) })
	})
	b.Run("Download4B", func(b *testing.B) { in(b, func(t *driver.Thread) error { return Download(t, d, small, buf) }) })
	b.Run("Upload4B", func(b *testing.B) { in(b, func(t *driver.Thread) error { return Upload(t, d, buf, small) }) })
	b.Run("Download4MiB", func(b *testing.B) { in(b, func(t *driver.Thread) error { return Download(t, d, big, buf) }) })
	b.Run("Upload4MiB", func(b *testing.B) { in(b, func(t *driver.Thread) error { return Upload(t, d, buf, big) }) })
	// The two stages of Upload4MiB apart: the host copy into a page-locked
	// chunk, and the copy engine's move of that chunk.
	bigBytes := asBytes(big)
	err = d.Run(b.Context(), func(t *driver.Thread) error { return d.ensureStaging(t, len(bigBytes)) })
	if err != nil {
		b.Fatal(err)
	}
	chunk := d.stage.Bufs[0].Bytes()[:len(bigBytes)]
	b.Run("ParallelCopy4MiBToPinned", func(b *testing.B) {
		in(b, func(*driver.Thread) error { parallelCopy(chunk, bigBytes); return nil })
	})
	b.Run("Copy4MiBToPinned", func(b *testing.B) {
		in(b, func(*driver.Thread) error { copy(chunk, bigBytes); return nil })
	})
	move := func(t *driver.Thread) error { // the chunk to the device
		if err := t.CopyToDeviceAsync(buf, d.stage.Bufs[0], 0, int64(len(bigBytes)), d.Stream()); err != nil {
			return err
		}
		return t.StreamSynchronize(d.Stream())
	}
	b.Run("DMA4MiBFromPinned", func(b *testing.B) { in(b, move) })
	// The copy and the move one after the other, the copy's pieces of
	// 256 KiB (16 goroutines) to 4 MiB (one), and around the cache: whether
	// the copy engine's read of lines the cores have just written costs
	// more than its read of clean ones (memmove writes pieces of 1 MiB and
	// more around the cache).
	for _, grain := range []int{256 << 10, 1 << 20, 2 << 20, 4 << 20} {
		b.Run(fmt.Sprintf("CopyThenDMA4MiB/grain=%dKiB", grain>>10), func(b *testing.B) {
			old := copyGrain
			copyGrain = grain
			defer func() { copyGrain = old }()
			in(b, func(t *driver.Thread) error { parallelCopy(chunk, bigBytes); return move(t) })
		})
	}
	b.Run("StreamCopyThenDMA4MiB", func(b *testing.B) {
		in(b, func(t *driver.Thread) error { parallelStreamCopy(chunk, bigBytes); return move(t) })
	})
	b.Run("Run", func(b *testing.B) {
		for b.Loop() {
			if err := d.Run(b.Context(), func(*driver.Thread) error { return nil }); err != nil {
				b.Fatal(err)
			}
		}
	})
}
