package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/semibench/semibench/internal/gitrepo"
)

// The documents whose commands a reader follows (issue 56, item 24: a
// compare example that named a file existing only as .jsonl.gz).
var documents = []string{"README.md", "REPRODUCE.md", "docs/*.md"}

// docCommand is a semibench command a document gives.
type docCommand struct {
	where string   // "README.md:123"
	args  []string // after "semibench"
}

// readOnly are the commands the document test runs: they read result
// files and write, at most, where a flag says (redirected to a scratch
// folder). The others measure or generate, which make test-slurm and
// the commands' own tests cover.
var readOnly = []string{"table", "claims", "compare", "report", "export", "plot", "history", "list", "info"}

// outFlags are the flags whose value is written to: the test gives each a
// path in a scratch folder.
var outFlags = []string{"--out", "--dir", "--plots", "--into", "--digest"}

// TestDocumentCommands runs every command that README.md, REPRODUCE.md
// and docs/ give on committed files (a `semibench history` of a claim or
// an experiment reads them all), as written but for where it writes, from
// the repository's root: each must exit 0. A command that names a
// run as COMMIT:PATH needs the repository's history; a shallow clone
// skips it and says so.
func TestDocumentCommands(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmds := documentCommands(t, root)
	shallow := false
	if repo, err := gitrepo.Open(t.Context(), root); err != nil {
		shallow = true
	} else if s, err := repo.IsShallow(t.Context()); err != nil || s {
		shallow = true
	}
	t.Chdir(root)
	scratch := t.TempDir()
	ran, skipped := 0, 0
	for _, c := range cmds {
		history := c.args[0] == "history" && len(c.args) > 1 && !strings.HasPrefix(c.args[1], "-") // reads the committed runs
		if !slices.Contains(readOnly, c.args[0]) || !history && !namesCommittedFile(root, c.args) || namesOwnFile(root, c.args) {
			continue
		}
		if shallow && (c.args[0] == "history" || namesGitRun(c.args)) {
			skipped++
			continue
		}
		args := redirectOutputs(c.args, scratch, root)
		code, _, stderr := capture(t, args...)
		if code != 0 {
			t.Errorf("%s: semibench %s exited %d: %s", c.where, strings.Join(c.args, " "), code, stderrLine(stderr))
		}
		t.Logf("%s: semibench %s", c.where, strings.Join(c.args, " "))
		ran++
	}
	if ran < 5 {
		t.Errorf("ran %d commands of the documents; want at least 5 (is the reader broken?)", ran)
	}
	t.Logf("ran %d commands the documents give on committed files; %d skipped (a shallow clone)", ran, skipped)
}

// documentCommands lists the semibench commands of the documents: the
// lines of code blocks that start with "semibench" (with their "\"
// continuations) and the inline code spans that do, each with its shell
// comment and output redirection removed.
func documentCommands(t *testing.T, root string) []docCommand {
	t.Helper()
	var out []docCommand
	inline := regexp.MustCompile("`(semibench [^`]+)`")
	for _, pattern := range documents {
		paths, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, p)
			text := string(b)
			lines := strings.Split(text, "\n")
			block := false
			for i := 0; i < len(lines); i++ {
				l := strings.TrimSpace(lines[i])
				if strings.HasPrefix(l, "```") {
					block = !block
					continue
				}
				if !block || !strings.HasPrefix(l, "semibench ") {
					continue
				}
				at := i
				for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
					i++
					l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(lines[i])
				}
				if args := shellWords(l); len(args) > 1 {
					out = append(out, docCommand{where: rel + ":" + strconv.Itoa(at+1), args: args[1:]})
				}
			}
			for _, m := range inline.FindAllStringSubmatchIndex(text, -1) {
				line := strings.Count(text[:m[0]], "\n") + 1
				if args := shellWords(text[m[2]:m[3]]); len(args) > 1 {
					out = append(out, docCommand{where: rel + ":" + strconv.Itoa(line), args: args[1:]})
				}
			}
		}
	}
	return out
}

// shellWords splits a command line as a shell would for these commands:
// words at blanks, '...' and "..." quoting, a '#' word ending it (a
// comment), a '>' or '|' word ending it (a redirection, a pipe). A line
// with a placeholder ([...], FILE, <label>, ...) gives nothing.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	quote, inWord := rune(0), false
	flush := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			flush()
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	flush()
	for i, w := range words {
		if w == "#" || strings.HasPrefix(w, ">") || w == "|" || w == "&&" || w == ";" {
			words = words[:i]
			break
		}
	}
	for _, w := range words {
		if strings.ContainsAny(w, "[]<>$*") || strings.Contains(w, "...") || placeholder.MatchString(w) {
			return nil
		}
	}
	return words
}

// placeholder matches a word a reader replaces: FILE, RUN.jsonl, A.json.
var placeholder = regexp.MustCompile(`(^|[=/])[A-Z][A-Z0-9_]*(\.[a-z.]+)?$`)

// namesCommittedFile reports whether args name a file of the tree or a
// run in git (COMMIT:PATH).
func namesCommittedFile(root string, args []string) bool {
	for _, a := range args {
		_, v, ok := strings.Cut(a, "=")
		for _, w := range []string{a, v} {
			if w == "" || !ok && w == v {
				continue
			}
			if gitRun.MatchString(w) {
				return true
			}
			if strings.Contains(w, "/") || strings.HasSuffix(w, ".jsonl") || strings.HasSuffix(w, ".gz") {
				if _, err := os.Stat(filepath.Join(root, w)); err == nil {
					return true
				}
			}
		}
	}
	return false
}

// namesOwnFile reports whether args name a result file that is not in
// the tree (the reader's own run, "run.jsonl"): such an example is the
// reader's to run, not the test's. Values of outFlags are written, not
// read.
func namesOwnFile(root string, args []string) bool {
	for i, a := range args {
		if i > 0 && slices.Contains(outFlags, args[i-1]) || gitRun.MatchString(a) {
			continue
		}
		if strings.HasSuffix(a, ".jsonl") || strings.HasSuffix(a, ".jsonl.gz") || strings.HasSuffix(a, ".json") {
			if _, err := os.Stat(filepath.Join(root, a)); err != nil {
				return true
			}
		}
	}
	return false
}

// gitRun matches COMMIT:PATH.
var gitRun = regexp.MustCompile(`^[0-9a-f]{7,40}(\^+|~[0-9]*)?:[^ ]+$`)

// namesGitRun reports whether args name a run as COMMIT:PATH.
func namesGitRun(args []string) bool {
	return slices.ContainsFunc(args, gitRun.MatchString)
}

// redirectOutputs gives every flag that writes a path in scratch; a
// Markdown file written --into is copied there first, so that its
// markers are found and the document itself is left alone.
func redirectOutputs(args []string, scratch, root string) []string {
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		name, value, eq := strings.Cut(out[i], "=")
		if !slices.Contains(outFlags, name) {
			continue
		}
		if !eq {
			if i+1 >= len(out) {
				break
			}
			value = out[i+1]
		}
		to := filepath.Join(scratch, strconv.Itoa(i)+"-"+filepath.Base(value))
		if name == "--into" {
			if b, err := os.ReadFile(filepath.Join(root, value)); err == nil {
				os.WriteFile(to, b, 0o644)
			}
		}
		if eq {
			out[i] = name + "=" + to
		} else {
			out[i+1] = to
			i++
		}
	}
	return out
}

func stderrLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// TestDocumentPaths checks every path of the repository's code and data
// that README.md, REPRODUCE.md, ARCHITECTURE.md and docs/ name: each must
// exist in the tree (results/ paths, which may be runs
// read from git, are TestCitedPathsRead's).
func TestDocumentPaths(t *testing.T) {
	root := filepath.Join("..", "..")
	tops := []string{"bench", "cmd", "docs", "example", "experiments", "generators", "history", "impls", "internal",
		"kernels", "mtx", "problems", "runner", "scripts"}
	span := regexp.MustCompile("(?:^|[\\s(`'\"])((?:bench|cmd|docs|example|experiments|generators|history|impls|internal|kernels|mtx|problems|runner|scripts)/[A-Za-z0-9_./<>*{}\\[\\]$-]*)")
	checked := 0
	for _, pattern := range append(slices.Clone(documents), "ARCHITECTURE.md") {
		paths, _ := filepath.Glob(filepath.Join(root, pattern))
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(root, p)
			for _, m := range span.FindAllStringSubmatchIndex(string(b), -1) {
				w := strings.TrimRight(string(b[m[2]:m[3]]), ".,:;)")
				top, _, ok := strings.Cut(w, "/")
				if !ok || !slices.Contains(tops, top) || strings.ContainsAny(w, "<>*{}[]$") || strings.Contains(w, "...") {
					continue
				}
				checked++
				if _, err := os.Stat(filepath.Join(root, w)); err != nil {
					line := strings.Count(string(b[:m[0]]), "\n") + 1
					t.Errorf("%s:%d names %s, which is not in the tree", rel, line, w)
				}
			}
		}
	}
	t.Logf("%d paths checked", checked)
	if checked < 20 {
		t.Errorf("checked %d paths; want at least 20 (is the reader broken?)", checked)
	}
}
