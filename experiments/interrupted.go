package experiments

import (
	"fmt"
	"strings"
)

// interruptedPrefix starts the note of a run interrupted before its end.
const interruptedPrefix = "interrupted: "

// InterruptedNote is the note a run interrupted before its end (Ctrl-C,
// SIGTERM) leaves in its result file: how many of its plan's cells have a
// record, and the command that goes on where it stopped.
func InterruptedNote(recorded, cells int, again string) string {
	return fmt.Sprintf("%safter %d of %d cells; go on with: %s", interruptedPrefix, recorded, cells, again)
}

// InterruptedText is the report's line for a run interrupted before its
// end (its latest InterruptedNote), or "".
func InterruptedText(notes []string) string {
	for i := len(notes) - 1; i >= 0; i-- {
		if rest, ok := strings.CutPrefix(notes[i], interruptedPrefix); ok {
			what, again, _ := strings.Cut(rest, "; go on with: ")
			return fmt.Sprintf("**Interrupted** %s: the tables and claims below read what finished. Go on with `%s`.", what, again)
		}
	}
	return ""
}

// InterruptedLostNote records ms of measurement of cell what that an
// interruption stopped and no record keeps (counted as LostNote's).
func InterruptedLostNote(ms float64, what string) string {
	return fmt.Sprintf("%s%.1f ms of measurement stopped by an interruption, not kept: %s", lostPrefix, ms, what)
}

// lostWhy says what stopped the measurement a run did not keep: the
// budget's end, or also an interruption.
func lostWhy(notes []string) string {
	if InterruptedText(notes) != "" {
		return "stopped by the interruption or the budget's end"
	}
	return "stopped at the budget's end"
}
