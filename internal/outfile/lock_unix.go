//go:build unix

package outfile

import (
	"errors"
	"os"
	"syscall"
)

// openFlags open an existing file for locking: never through a symlink
// (the caller resolved those), and never blocking on a FIFO that appeared
// in place of a regular file.
const openFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// TryLock takes an exclusive flock on f without waiting. It fails with an
// error other than nil when another open file description (in this process
// or another) holds it. flock locks belong to the open file description and
// the kernel drops them when the holder exits, however it exits, so a
// SIGKILLed writer leaves no stale lock behind.
func TryLock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return errLocked
		}
		return err
	}
}
