//go:build !linux

package outfile

import (
	"errors"
	"os"
)

// anonymousTemp reports that anonymous files are not available here: the
// caller uses a named temporary.
func anonymousTemp(string, os.FileMode) (*os.File, bool, error) { return nil, false, nil }

// linkAnonymous is never called where anonymousTemp reports no support.
func linkAnonymous(*os.File, string) error {
	return errors.New("anonymous files are not supported on this system")
}
