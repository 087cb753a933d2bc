package outfile

import (
	"os"
	"path/filepath"
	"strings"
)

// stagePrefix starts the names of staging folders in the system's
// temporary folder.
const stagePrefix = "semibench-stage-"

// Stage is a scratch folder for a tool that can only write into a folder
// (the plots, drawn file by file): its files are then put in place one by
// one with Write. It is made in the system's temporary folder and locked
// while it lives; Close removes it, RemoveTemps does on a signal, and after
// a kill the next NewStage removes every stage no live process holds.
type Stage struct {
	Dir  string
	lock *os.File
}

// NewStage makes a staging folder.
func NewStage() (*Stage, error) {
	removeStaleStages()
	dir, err := os.MkdirTemp("", stagePrefix+"*")
	if err != nil {
		return nil, err
	}
	s := &Stage{Dir: dir}
	if s.lock, err = os.Open(dir); err == nil {
		err = TryLock(s.lock)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	trackDir(dir)
	return s, nil
}

// Close removes the folder and what it holds.
func (s *Stage) Close() {
	os.RemoveAll(s.Dir)
	untrack(s.Dir)
	if s.lock != nil {
		s.lock.Close()
	}
}

// removeStaleStages removes the staging folders no live process holds.
func removeStaleStages() {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), stagePrefix) {
			continue
		}
		p := filepath.Join(tmp, e.Name())
		d, err := os.Open(p)
		if err != nil {
			continue
		}
		if TryLock(d) == nil {
			os.RemoveAll(p)
		}
		d.Close()
	}
}
