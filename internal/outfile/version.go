package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// NamedTemps makes every version a named temporary from the start, as on
// systems without O_TMPFILE (tests set it to cover that path on Linux).
var NamedTemps = false

// Perm is the mode of new files (less the umask).
const Perm fs.FileMode = 0o644

// live holds this process's named temporaries and staging folders (true
// for a folder), for RemoveTemps.
var live struct {
	sync.Mutex
	names map[string]bool
}

func track(name string)    { mark(name, false) }
func trackDir(name string) { mark(name, true) }

func mark(name string, dir bool) {
	live.Lock()
	defer live.Unlock()
	if live.names == nil {
		live.names = map[string]bool{}
	}
	live.names[name] = dir
}

func untrack(name string) {
	live.Lock()
	defer live.Unlock()
	delete(live.names, name)
}

// RemoveTemps removes every named temporary this process has not yet
// renamed into place or discarded, and its staging folders: for a signal
// handler about to exit without unwinding. Anonymous versions need
// nothing: they vanish with the process.
func RemoveTemps() {
	live.Lock()
	defer live.Unlock()
	for name, dir := range live.names {
		if dir {
			os.RemoveAll(name)
		} else {
			os.Remove(name)
		}
	}
	clear(live.names)
}

// Version is a new version of a file being written beside its target,
// locked from its creation: anonymous where the system allows, else named.
type Version struct {
	f    *os.File
	real string // the file it will replace
	name string // its temporary name; "" while it has none
}

// NewVersion creates an empty, locked version beside real. mode, when not
// zero, is set exactly (an existing file's mode is kept); otherwise the
// file is Perm less the umask.
func NewVersion(real string, mode fs.FileMode) (*Version, error) {
	v := &Version{real: real}
	var ok bool
	var err error
	if !NamedTemps {
		v.f, ok, err = anonymousTemp(filepath.Dir(real), Perm)
	}
	switch {
	case err != nil:
		return nil, err
	case !ok:
		if err := v.createNamed(); err != nil {
			return nil, err
		}
	}
	// Locked before it can have a name, so the clean-up of stale
	// temporaries never takes it for a dead writer's. (A named temporary
	// is unlocked for the moment between its creation and this call; a
	// clean-up that removes it then leaves this writer a nameless file,
	// which Install then fails to rename: an error, never a loss.)
	err = TryLock(v.f)
	if err == nil && mode != 0 {
		err = v.f.Chmod(mode)
	}
	if err != nil {
		v.Discard()
		return nil, err
	}
	return v, nil
}

// File returns the version's open file, to write it.
func (v *Version) File() *os.File { return v.f }

// tempName returns a fresh temporary name for v's target.
func (v *Version) tempName() string {
	return filepath.Join(filepath.Dir(v.real), tempPrefix(v.real)+strconv.FormatUint(rand.Uint64(), 10))
}

// createNamed creates v's file under a fresh temporary name.
func (v *Version) createNamed() error {
	for range 1000 {
		name := v.tempName()
		track(name)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, Perm)
		if err == nil {
			v.f, v.name = f, name
			return nil
		}
		untrack(name)
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return fmt.Errorf("no free temporary name %s*", filepath.Join(filepath.Dir(v.real), tempPrefix(v.real)))
}

// Install syncs v and puts it at its target. With replace it renames v over
// the file there; without, it gives v the name only if nothing has it (a
// file created meanwhile by another writer is never replaced; the error
// then matches fs.ErrExist). The folder is synced after. v stays open and
// locked: the caller closes it (File().Close()) when it drops the lock.
func (v *Version) Install(replace bool) error {
	if err := v.f.Sync(); err != nil {
		return err
	}
	if err := v.install(replace); err != nil {
		return err
	}
	SyncDir(filepath.Dir(v.real))
	return nil
}

func (v *Version) install(replace bool) error {
	if !replace {
		if v.name == "" {
			return linkAnonymous(v.f, v.real)
		}
		if err := os.Link(v.name, v.real); err != nil {
			return err
		}
		os.Remove(v.name)
		untrack(v.name)
		v.name = ""
		return nil
	}
	for v.name == "" {
		name := v.tempName()
		track(name)
		err := linkAnonymous(v.f, name)
		if err == nil {
			v.name = name
			break
		}
		untrack(name)
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	if err := os.Rename(v.name, v.real); err != nil {
		return err
	}
	untrack(v.name)
	v.name = ""
	return nil
}

// Discard closes v and removes its name, if it has one.
func (v *Version) Discard() {
	v.f.Close()
	if v.name != "" {
		os.Remove(v.name)
		untrack(v.name)
		v.name = ""
	}
}
