package outfile

import (
	"errors"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// procFD reports whether /proc/self/fd is there: linking an O_TMPFILE file
// into a folder goes through it (linkat with AT_EMPTY_PATH would need
// CAP_DAC_READ_SEARCH).
var procFD = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/self/fd")
	return err == nil
})

// anonymousTemp creates a file in dir that has no name (O_TMPFILE), so a
// writer killed before it is complete leaves nothing in the folder. ok is
// false when the kernel or the file system cannot (the caller then uses a
// named temporary).
func anonymousTemp(dir string, perm os.FileMode) (f *os.File, ok bool, err error) {
	if !procFD() {
		return nil, false, nil
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, uint32(perm))
	if err != nil {
		if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL) {
			return nil, false, nil
		}
		return nil, false, &os.PathError{Op: "open O_TMPFILE", Path: dir, Err: err}
	}
	return os.NewFile(uintptr(fd), dir+"/(O_TMPFILE)"), true, nil
}

// linkAnonymous gives an anonymous file the name path; it fails with an
// error matching fs.ErrExist when the name is taken (linkat never replaces).
func linkAnonymous(f *os.File, path string) error {
	src := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	if err := unix.Linkat(unix.AT_FDCWD, src, unix.AT_FDCWD, path, unix.AT_SYMLINK_FOLLOW); err != nil {
		return &os.LinkError{Op: "linkat", Old: src, New: path, Err: err}
	}
	return nil
}
