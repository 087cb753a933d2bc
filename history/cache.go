package history

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/semibench/semibench/bench"
)

// summaryVersion is the format of a cached run summary: raise it when
// summary or trim changes what it keeps, and the cache is read afresh.
// Summaries are keyed by blob and this version, not by the binary's build:
// what they keep is the file's own content, which no build changes.
const summaryVersion = 3

// head is what history keeps of every version of a result file: its
// header and how many records it holds, or why it is no run.
type head struct {
	Header  *bench.File // Records nil
	Records int
	// Experiments are the experiments its records cover, Papers their
	// papers (the names' first path elements).
	Experiments, Papers []string
	// Err says why the blob is no run (not a result file, damaged); the
	// other fields are then empty.
	Err string
}

// cache keeps summaries and judged claims on disk under dir: runs-vN/ by
// blob hash, claims/<build>/ by blob hash and the binary's build (the
// claims depend on the code that judges them). A nil cache keeps nothing.
type cache struct {
	dir   string
	build string // the binary's build, a file name; "" keeps no claims
}

// defaultCacheDir is where the cache lives: semibench/history under the
// user's cache folder (os.UserCacheDir), or "" where there is none.
func defaultCacheDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "semibench", "history")
}

// buildKey names a build as a file name: its commit, and the executable's
// digest where the commit does not say what code it is; "" when neither
// is known (no claims are cached then).
func buildKey(b bench.Build) string {
	k := strings.NewReplacer("+", "-", "/", "-").Replace(b.Commit)
	if b.Binary != "" {
		k += "-" + b.Binary
	}
	if b.Commit == "" && b.Binary == "" {
		return ""
	}
	return k
}

func (c *cache) path(kind, key, blob string) string {
	return filepath.Join(c.dir, kind, key, blob[:2], blob+".gob")
}

// get reads what put stored under (kind, key, blob) into v; false when
// there is none or it cannot be read (a damaged entry is read afresh).
func (c *cache) get(kind, key, blob string, v any) bool {
	if c == nil || c.dir == "" || len(blob) < 3 {
		return false
	}
	data, err := os.ReadFile(c.path(kind, key, blob))
	if err != nil {
		return false
	}
	return gob.NewDecoder(bytes.NewReader(data)).Decode(v) == nil
}

// put stores v under (kind, key, blob), atomically (a temporary file
// renamed), so concurrent readers never see half an entry. A cache that
// cannot be written is no error: the next question reads the files again.
func (c *cache) put(kind, key, blob string, v any) error {
	if c == nil || c.dir == "" || len(blob) < 3 {
		return nil
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(v); err != nil {
		return fmt.Errorf("history cache: %w", err)
	}
	p := c.path(kind, key, blob)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return nil
	}
	_, werr := tmp.Write(b.Bytes())
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return nil
	}
	if err := os.Rename(tmp.Name(), p); err != nil && !errors.Is(err, fs.ErrExist) {
		os.Remove(tmp.Name())
	}
	return nil
}

// drop removes what put stored under (kind, key, blob), if anything.
func (c *cache) drop(kind, key, blob string) {
	if c == nil || c.dir == "" || len(blob) < 3 {
		return
	}
	os.Remove(c.path(kind, key, blob))
}

// The cache folders of heads and of records (trimmed), of this
// summaryVersion.
var (
	headsKind   = fmt.Sprintf("heads-v%d", summaryVersion)
	recordsKind = fmt.Sprintf("records-v%d", summaryVersion)
)
