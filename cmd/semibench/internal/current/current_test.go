package current

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRead: a machine's line, a "beyond" line, comments and blank lines;
// paths come back joined to the file's folder; a line without files and a
// file without a machine's run are refused, naming the line or the file.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "CURRENT")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("# runs\nH100 a.jsonl b.jsonl\n\nbeyond 4xH200 m14.jsonl\n")
	runs, beyond, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Label != "H100" || len(runs[0].Paths) != 2 || runs[0].Paths[1] != filepath.Join(dir, "b.jsonl") {
		t.Errorf("runs %+v", runs)
	}
	if len(beyond) != 1 || beyond[0].Label != "4xH200" || beyond[0].Paths[0] != filepath.Join(dir, "m14.jsonl") {
		t.Errorf("beyond %+v", beyond)
	}
	if got := RelPaths(path, runs[0].Paths); strings.Join(got, " ") != "a.jsonl b.jsonl" {
		t.Errorf("RelPaths: %v", got)
	}
	for _, bad := range []struct{ text, want string }{
		{"H100 a.jsonl\nbeyond 4xH200\n", "CURRENT:2"},
		{"H100\n", "CURRENT:1"},
		{"beyond 4xH200 m14.jsonl\n", "no run listed"},
	} {
		write(bad.text)
		if _, _, err := Read(path); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want an error naming %s", bad.text, err, bad.want)
		}
	}
}
