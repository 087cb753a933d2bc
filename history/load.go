package history

import (
	"cmp"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/internal/gitrepo"
)

// ResultsDir is the folder of the repository whose files and history
// hold the runs.
const ResultsDir = "results"

// Options say where to read runs from.
type Options struct {
	// Dir is a folder of the repository (default "."): its results/ and,
	// where it is a git repository, results/'s history.
	Dir string
	// Files are more result files to read (paths, or COMMIT:PATH).
	Files []string
	// NoGit reads the files alone, as in a tree without git.
	NoGit bool
	// CacheDir holds the cache (default: semibench/history under the
	// user's cache folder); "-" keeps none.
	CacheDir string
	// Build is the build whose judging the claims cache is keyed by
	// (default bench.CurrentBuild()).
	Build *bench.Build
	// Progress receives a line now and then while the reading takes more
	// than a second or two; nil says nothing.
	Progress io.Writer
	// Papers are the papers a whole reproduce covers (the first path
	// element of their experiments' names); default those of the
	// registered experiments (experiments.All).
	Papers []string
}

// History is every run read, in the repository's commit order.
type History struct {
	// Runs are the runs on the timeline, ordered by commit (Order), then
	// by start; Apart are the others, by start.
	Runs, Apart []*Run
	// Notes say what limited the reading (a shallow clone, no git).
	Notes []string
	// Skipped name the files that are no runs, with why
	// ("COMMIT:PATH: why").
	Skipped []string
	// Cached and Read count the file versions whose summaries came from
	// the cache and those read and decoded.
	Cached, Read int
	// ClaimsCached and ClaimsJudged count the runs whose claims came
	// from the cache and those judged.
	ClaimsCached, ClaimsJudged int
	// Git reports whether the repository's history was read.
	Git bool

	repo *gitrepo.Repo
	root string
	// byDate orders commits by their runs' dates, where the
	// repository's history is not read (no git, a shallow clone).
	byDate  bool
	commits []string       // the repository's commits, oldest first
	order   map[string]int // full hash -> place in commits
	cache   *cache
}

// Root is the folder the runs' paths are relative to: the repository's
// top level, or Options.Dir without git.
func (h *History) Root() string { return h.root }

// Commits are the repository's commits, oldest first (nil without git).
func (h *History) Commits() []string { return h.commits }

// resultName reports whether a path names a result file by its name.
func resultName(p string) bool {
	p = strings.TrimSuffix(p, ".gz")
	return strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")
}

// version is one version of a result file: where it reads and its bytes'
// blob hash.
type version struct {
	where  string // path (tree) or COMMIT:PATH
	tree   bool
	path   string // the file, for a version read from a file
	commit string // the commit that holds it, for a version from git
	blob   string
	data   []byte // the bytes, while they are at hand
	when   time.Time
}

// git reports whether the version is read from git's objects (by blob).
func (v version) git() bool { return v.path == "" && v.data == nil }

// Load reads every run: the result files in the tree (results/ and
// opts.Files) and, in a git repository that is no shallow clone, every
// version of a result file ever committed under results/.
func Load(ctx context.Context, opts Options) (*History, error) {
	dir := cmp.Or(opts.Dir, ".")
	h := &History{root: dir}
	switch opts.CacheDir {
	case "-":
	case "":
		h.cache = &cache{dir: defaultCacheDir()}
	default:
		h.cache = &cache{dir: opts.CacheDir}
	}
	if h.cache != nil {
		b := bench.CurrentBuild()
		if opts.Build != nil {
			b = *opts.Build
		}
		h.cache.build = buildKey(b)
	}
	var versions []version
	if !opts.NoGit {
		vs, err := h.openGit(ctx, dir)
		if err != nil {
			return nil, err
		}
		versions = vs
	} else {
		h.Notes = append(h.Notes, "history: git not read (as asked): the runs of the files alone")
	}
	tree, err := treeVersions(h.root, opts.Files, h.repo, ctx)
	if err != nil {
		return nil, err
	}
	versions = append(tree, versions...)
	heads, err := h.summarize(ctx, versions, opts.Progress)
	if err != nil {
		return nil, err
	}
	papers := opts.Papers
	if papers == nil {
		for _, e := range experiments.All() {
			if p, _, _ := strings.Cut(e.Name, "/"); !slices.Contains(papers, p) {
				papers = append(papers, p)
			}
		}
	}
	h.assemble(ctx, versions, heads, papers)
	return h, nil
}

// openGit opens dir's repository and lists the versions of results/ in
// its history; without git, or in a shallow clone, it notes why and lists
// none.
func (h *History) openGit(ctx context.Context, dir string) ([]version, error) {
	repo, err := gitrepo.Open(ctx, dir)
	switch {
	case errors.Is(err, gitrepo.ErrNoGit), errors.Is(err, gitrepo.ErrNotRepo):
		h.Notes = append(h.Notes, fmt.Sprintf("history: %s is not in a git repository (or git is absent): the runs of the files alone", dir))
		return nil, nil
	case err != nil:
		return nil, err
	}
	h.repo, h.root = repo, repo.Root()
	if h.commits, err = repo.Commits(ctx, "", false); err != nil {
		// a repository without a commit has no history to read
		h.Notes = append(h.Notes, fmt.Sprintf("history: %s has no commits (%v): the runs of the files alone", h.root, err))
		h.repo = nil
		return nil, nil
	}
	h.order = make(map[string]int, len(h.commits))
	for i, c := range h.commits {
		h.order[c] = i
	}
	shallow, err := repo.IsShallow(ctx)
	if err != nil {
		return nil, err
	}
	if shallow {
		h.Notes = append(h.Notes, "history: a shallow clone: results/'s history is cut short, so the runs come from the files alone (git fetch --unshallow reads them all)")
		return nil, nil
	}
	h.Git = true
	vs, err := repo.Versions(ctx, "", resultName, ResultsDir+"/")
	if err != nil {
		return nil, err
	}
	out := make([]version, len(vs))
	for i, v := range vs {
		out[i] = version{where: v.Commit[:7] + ":" + v.Path, commit: v.Commit, blob: v.Blob, when: v.Time}
	}
	return out, nil
}

// treeVersions reads the result files under root's results/ and the
// files named: their bytes and blob hashes.
func treeVersions(root string, files []string, repo *gitrepo.Repo, ctx context.Context) ([]version, error) {
	var out []version
	base := filepath.Join(root, ResultsDir)
	err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == base {
				return filepath.SkipDir
			}
			return err
		}
		if d.IsDir() || !d.Type().IsRegular() || !resultName(p) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, version{where: filepath.ToSlash(rel), tree: true, path: p, blob: blobHash(data), data: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("history: reading %s: %w", base, err)
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil && repo != nil {
			if commit, path, ok := gitrepo.SplitRef(f); ok {
				o, err := repo.Read(ctx, commit+":"+path)
				if err != nil {
					return nil, fmt.Errorf("history: %s: %w", f, err)
				}
				out = append(out, version{where: f, commit: commit, blob: o.Hash, data: o.Data})
				continue
			}
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		out = append(out, version{where: f, tree: true, path: f, blob: blobHash(data), data: data})
	}
	return out, nil
}

// blobHash is git's blob hash of data (SHA-1 of "blob <size>\0" and the
// bytes), so a file in the tree and its committed version share a key.
func blobHash(data []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(data))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// maxInflate bounds what one gzipped result file may inflate to.
const maxInflate = 2 * bench.MaxFileBytes

// summarize returns the head of every distinct blob of versions: from the
// cache, or read (tree bytes, or streamed from git) and decoded by as
// many workers as there are CPUs, which cache the records too.
func (h *History) summarize(ctx context.Context, versions []version, progress io.Writer) (map[string]*head, error) {
	heads := map[string]*head{}
	var todo []version
	for _, v := range versions {
		if _, ok := heads[v.blob]; ok {
			continue
		}
		var hd head
		if h.cache.get(headsKind, "", v.blob, &hd) {
			heads[v.blob] = &hd
			h.Cached++
			continue
		}
		heads[v.blob] = nil
		todo = append(todo, v)
	}
	h.Read = len(todo)
	var mu sync.Mutex
	err := h.decodeAll(ctx, todo, progress, "history: read %d of %d result file versions", func(blob string, hd *head, _ []bench.Record) {
		mu.Lock()
		heads[blob] = hd
		mu.Unlock()
	})
	return heads, err
}

// decodeAll reads the versions, decodes each (decodeVersion), caches its
// head and records, and hands them to done (from the workers).
func (h *History) decodeAll(ctx context.Context, todo []version, progress io.Writer, format string, done func(blob string, hd *head, recs []bench.Record)) error {
	return h.each(ctx, todo, progress, format, func(blob string, data []byte) {
		hd, recs := decodeVersion(data)
		h.cache.put(headsKind, "", blob, hd)
		if hd.Err == "" {
			h.cache.put(recordsKind, "", blob, recs)
		}
		done(blob, hd, recs)
	})
}

// each reads the versions' bytes (tree bytes or files, or blobs streamed
// from git through one cat-file) and hands each to fn, called from as
// many workers as there are CPUs, showing progress on progress.
func (h *History) each(ctx context.Context, todo []version, progress io.Writer, format string, fn func(blob string, data []byte)) error {
	if len(todo) == 0 {
		return nil
	}
	type job struct {
		blob string
		data []byte
	}
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan job, workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	prog := startProgress(progress, format, len(todo))
	defer prog.stop()
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				fn(j.blob, j.data)
				mu.Lock()
				n++
				prog.set(n)
				mu.Unlock()
			}
		}()
	}
	send := func(j job) error {
		select {
		case jobs <- j:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	var names []string
	var err error
	for _, v := range todo {
		if v.git() {
			names = append(names, v.blob)
			continue
		}
		data := v.data
		if data == nil {
			if data, err = os.ReadFile(v.path); err != nil {
				break
			}
		}
		if err = send(job{v.blob, data}); err != nil {
			break
		}
	}
	if err == nil && len(names) > 0 {
		err = h.repo.Stream(ctx, names, func(name string, o gitrepo.Object, oerr error) error {
			if oerr != nil {
				return oerr
			}
			return send(job{name, o.Data})
		})
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return fmt.Errorf("history: reading the runs: %w", err)
	}
	return nil
}

// decodeVersion decodes a result file's bytes (gzipped or not) into its
// head and trimmed records; a file that is no run gives a head saying
// why.
func decodeVersion(data []byte) (*head, []bench.Record) {
	raw, err := gitrepo.Gunzip(data, maxInflate)
	if err != nil {
		return &head{Err: err.Error()}, nil
	}
	f, err := bench.Decode(raw)
	if err != nil {
		return &head{Err: err.Error()}, nil
	}
	if f.Source != "" {
		return &head{Err: "a paper's numbers, not a run (" + f.Source + ")"}, nil
	}
	recs := trim(f.Records)
	var papers, exps []string
	for i := range recs {
		if e := recs[i].Experiment; !slices.Contains(exps, e) {
			exps = append(exps, e)
			if p, _, _ := strings.Cut(e, "/"); !slices.Contains(papers, p) {
				papers = append(papers, p)
			}
		}
	}
	f.Records, f.Torn = nil, nil
	return &head{Header: f, Records: len(recs), Papers: papers, Experiments: exps}, recs
}

// Fill reads the records of the runs that have none yet: from the cache,
// or from their files (the tree's, or git's blobs) when it has none.
func (h *History) Fill(ctx context.Context, runs []*Run, progress io.Writer) error {
	var todo []version
	var mu sync.Mutex
	byBlob := map[string][]*Run{}
	var missing []*Run
	for _, r := range runs {
		if r.Records == nil && r.src.blob != "" {
			missing = append(missing, r)
		}
	}
	// the cache first, in parallel: gob decoding is most of the time
	var wg sync.WaitGroup
	next := make(chan *Run)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range next {
				var recs []bench.Record
				if h.cache.get(recordsKind, "", r.src.blob, &recs) {
					r.Records = nonNil(recs)
					continue
				}
				mu.Lock()
				if byBlob[r.src.blob] == nil {
					todo = append(todo, r.src)
				}
				byBlob[r.src.blob] = append(byBlob[r.src.blob], r)
				mu.Unlock()
			}
		}()
	}
	for _, r := range missing {
		next <- r
	}
	close(next)
	wg.Wait()
	return h.decodeAll(ctx, todo, progress, "history: read %d of %d runs' records", func(blob string, _ *head, recs []bench.Record) {
		mu.Lock()
		defer mu.Unlock()
		for _, r := range byBlob[blob] {
			r.Records = nonNil(recs)
		}
	})
}

// assemble groups the versions into runs, each at its fullest version,
// and places each run in the repository's history.
func (h *History) assemble(ctx context.Context, versions []version, heads map[string]*head, papers []string) {
	type group struct {
		best     version
		head     *head
		versions int
		blobs    map[string]bool
	}
	groups := map[string]*group{}
	var keys []string
	skipped := map[string]bool{}
	for _, v := range versions {
		hd := heads[v.blob]
		if hd == nil || hd.Header == nil {
			if hd != nil && !skipped[v.blob] {
				skipped[v.blob] = true
				h.Skipped = append(h.Skipped, v.where+": "+hd.Err)
			}
			continue
		}
		id := identity(hd.Header)
		g, ok := groups[id]
		if !ok {
			groups[id] = &group{best: v, head: hd, versions: 1, blobs: map[string]bool{v.blob: true}}
			keys = append(keys, id)
			continue
		}
		if !g.blobs[v.blob] {
			g.blobs[v.blob] = true
			g.versions++
		}
		// the fullest version; of equals, the tree's, then the newest commit's
		if n, m := hd.Records, g.head.Records; n > m || n == m && better(v, g.best) {
			g.best, g.head = v, hd
		}
	}
	h.byDate = !h.Git
	chosen := map[string]bool{}
	for _, g := range groups {
		chosen[g.best.blob] = true
	}
	for blob, hd := range heads { // a shorter version's records are never read
		if hd != nil && hd.Err == "" && !chosen[blob] {
			h.cache.drop(recordsKind, "", blob)
		}
	}
	for _, id := range keys {
		g := groups[id]
		src := g.best
		src.data = nil
		r := &Run{Where: src.where, Blob: src.blob, Header: g.head.Header, Kind: KindOf(g.head.Header.Machine),
			Versions: g.versions, Order: -1, Size: g.head.Records, Experiments: g.head.Experiments, src: src}
		r.Reproduce = isReproduce(r.Header, g.head.Papers, papers)
		h.place(ctx, r)
		if r.Apart != "" {
			h.Apart = append(h.Apart, r)
		} else {
			h.Runs = append(h.Runs, r)
		}
	}
	if h.byDate {
		h.orderByDate()
	}
	slices.SortStableFunc(h.Runs, func(a, b *Run) int {
		return cmp.Or(cmp.Compare(a.Order, b.Order), a.Date().Compare(b.Date()), strings.Compare(a.Where, b.Where))
	})
	slices.SortStableFunc(h.Apart, func(a, b *Run) int {
		return cmp.Or(a.Date().Compare(b.Date()), strings.Compare(a.Where, b.Where))
	})
}

// better reports whether version a should be read rather than b, of two
// equally full versions of one run: the tree's first, then the newest
// commit's.
func better(a, b version) bool {
	if a.tree != b.tree {
		return a.tree
	}
	return a.when.After(b.when)
}

// place finds a run's commit in the repository's history, or says why the
// run stands apart.
func (h *History) place(ctx context.Context, r *Run) {
	c := r.Header.Semibench.Commit
	switch {
	case c == "" || c == "unknown":
		r.Apart = "its build names no commit"
	case strings.HasSuffix(c, "+dirty"):
		r.Apart = "a build of " + c[:min(7, len(c))] + " with uncommitted changes"
	case h.byDate:
		r.Commit = c // placed by date in assemble
	default:
		hash, mark := splitCommit(c)
		if mark != "" {
			r.Apart = "a build of " + short(hash) + " marked " + mark + ", not the commit's own code"
			return
		}
		full := hash
		if _, ok := h.order[full]; !ok && h.repo != nil {
			if f, err := h.repo.Resolve(ctx, hash); err == nil {
				full = f
			}
		}
		i, ok := h.order[full]
		if !ok {
			r.Apart = "commit " + short(hash) + " is not in this repository's history"
			return
		}
		r.Commit, r.Order = full, i
	}
}

// orderByDate places the commits of runs read without the repository's
// history in the order of their first runs' dates: the best order the
// files alone give, which Notes say.
func (h *History) orderByDate() {
	slices.SortStableFunc(h.Runs, func(a, b *Run) int { return a.Date().Compare(b.Date()) })
	seen := map[string]int{}
	for _, r := range h.Runs {
		i, ok := seen[r.Commit]
		if !ok {
			i = len(seen)
			seen[r.Commit] = i
		}
		r.Order = i
	}
	if len(h.Runs) > 0 {
		h.Notes = append(h.Notes, fmt.Sprintf("history: %d runs from the files only, their commits ordered by the runs' dates", len(h.Runs)))
	}
}

// nonNil is recs, or an empty slice for none: a run read with no
// records is told from one not read yet.
func nonNil(recs []bench.Record) []bench.Record {
	if recs == nil {
		return []bench.Record{}
	}
	return recs
}

// splitCommit splits a build's commit into its hexadecimal hash and what
// follows it ("-dyn" in "4d626b1...-dyn", a build of an experiment); ""
// for a plain hash.
func splitCommit(c string) (hash, mark string) {
	i := 0
	for i < len(c) && strings.ContainsRune("0123456789abcdef", rune(c[i])) {
		i++
	}
	return c[:i], c[i:]
}
