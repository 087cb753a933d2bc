// Package outfile writes the files semibench's commands produce so that
// nothing is lost, nothing is clobbered and no partial file is ever seen.
//
// Every output goes to a new version beside its target: on Linux an
// O_TMPFILE, which has no name until it is complete and synced, elsewhere
// a named temporary ".NAME.tmp-DIGITS". Only a command that succeeded gives
// the version the target's name (a rename, atomic on every POSIX file
// system), so on any failure, interruption or kill the file that was there
// before is untouched.
//
// A symlink is written through: the file it points to is replaced and the
// link stays. A directory, FIFO, device or socket is refused, since a rename
// over it would destroy it; standard output is asked for by the name "-".
//
// A writer holds an exclusive flock on the file it replaces and on its own
// version from before the version has a name, so two writers of one file
// are told apart from a dead one: the next writer of a file removes every
// temporary of that file that no live writer holds, which is what a
// SIGKILLed writer leaves behind. RemoveTemps removes this process's own
// named temporaries, for a signal handler that must exit at once.
//
// Package bench's result files are the one output that grows in place:
// Target.OpenAppend opens them for appending, under the same lock.
package outfile
