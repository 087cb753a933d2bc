//go:build !unix

package outfile

import "os"

// openFlags open an existing file for locking.
const openFlags = os.O_RDONLY

// TryLock does nothing where flock is not available: two writers of one
// file are not detected there.
func TryLock(*os.File) error { return nil }
