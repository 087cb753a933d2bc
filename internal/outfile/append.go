package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// OpenAppend opens the regular file at t.Real for appending (O_APPEND:
// every write lands at the end, whole), creating it empty (Perm less the
// umask) when there is none, and takes its lock, held until the file is
// closed. It refuses what LockExisting refuses: something other than a
// regular file (ErrNotRegular), a file another writer holds (ErrInUse).
// This is how a file grows in place (bench's result files); every other
// output is written as a new version (Create).
func (t Target) OpenAppend() (*os.File, error) {
	for range 100 {
		if st, err := os.Lstat(t.Real); err == nil && !st.Mode().IsRegular() {
			return nil, t.notRegular(st.Mode())
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		f, err := os.OpenFile(t.Real, openFlags|os.O_RDWR|os.O_APPEND|os.O_CREATE, Perm)
		if err != nil {
			return nil, fmt.Errorf("opening %s: %w", t.Path, err)
		}
		st, err := f.Stat()
		if err == nil && !st.Mode().IsRegular() {
			err = t.notRegular(st.Mode())
		}
		if err == nil {
			err = TryLock(f)
			if err != nil {
				err = t.lockError(err)
			}
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		if now, err := os.Lstat(t.Real); err == nil && os.SameFile(st, now) {
			return f, nil
		}
		f.Close() // another writer renamed a new version over it meanwhile
	}
	return nil, fmt.Errorf("%s keeps being replaced while it is opened", t.Path)
}
