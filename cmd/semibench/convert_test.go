package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semibench/semibench/bench"
)

// TestConvert converts a schema-1 paper table and a schema-2 run
// (testdata/convert) and checks that every record and the header read the
// same from the twin, the timing protocol included; that a second
// conversion refuses to replace the twins; and the usage errors.
func TestConvert(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"schema1-paper.json", "schema2-run.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", "convert", name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	if code, _, stderr := capture(t, append([]string{"convert"}, paths...)...); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, stderr)
	}
	for i, p := range paths {
		old, err := bench.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		twin := strings.TrimSuffix(p, ".json") + ".jsonl"
		got, err := bench.ReadFile(twin)
		if err != nil {
			t.Fatal(err)
		}
		if old.Schema != i+1 || got.Schema != bench.SchemaVersion || got.TimingProtocol() != old.Schema || got.Torn != nil {
			t.Errorf("%s: schema %d, converted schema %d, protocol %d", p, old.Schema, got.Schema, got.TimingProtocol())
		}
		if len(got.Records) != len(old.Records) || len(old.Records) == 0 {
			t.Fatalf("%s: %d records, converted %d", p, len(old.Records), len(got.Records))
		}
		for k := range old.Records {
			a, _ := json.Marshal(old.Records[k])
			b, _ := json.Marshal(got.Records[k])
			if !bytes.Equal(a, b) {
				t.Errorf("%s: record %d\n%s\nconverted\n%s", p, k, a, b)
			}
		}
		if got.Machine.Label != old.Machine.Label || got.Source != old.Source || !got.Started.Equal(old.Started) || got.Semibench != old.Semibench {
			t.Errorf("%s: header changed: %+v, converted %+v", p, old, got)
		}
		lines := bytes.Count(mustRead(t, twin), []byte("\n"))
		if lines != len(old.Records)+1 {
			t.Errorf("%s: %d lines, want a header and a line per record (%d)", twin, lines, len(old.Records)+1)
		}
	}
	before := mustRead(t, strings.TrimSuffix(paths[1], ".json")+".jsonl")
	code, _, stderr := capture(t, "convert", paths[1])
	if code != 1 || !strings.Contains(stderr, "exists already") || !strings.Contains(stderr, paths[1]) {
		t.Errorf("converting again: exit %d, %s; want 1 refusing to replace the twin", code, stderr)
	}
	if after := mustRead(t, strings.TrimSuffix(paths[1], ".json")+".jsonl"); !bytes.Equal(before, after) {
		t.Error("a second conversion changed the twin")
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert"}, 2, "name at least one result file"},
		{[]string{"convert", "x.jsonl"}, 2, "x.jsonl already ends in .jsonl"},
		{[]string{"convert", "--bogus", paths[0]}, 2, "flag provided but not defined"},
		{[]string{"convert", filepath.Join(dir, "missing.json")}, 1, "missing.json"},
		{[]string{"convert", "testdata/bad/results/median.json"}, 1, "median"},
		{[]string{"convert", "--help"}, 0, ""},
	} {
		code, _, stderr := capture(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, stderr, tc.code, tc.want)
		}
	}
	if _, err := os.Stat("testdata/bad/results/median.jsonl"); err == nil {
		os.Remove("testdata/bad/results/median.jsonl")
		t.Error("a file that does not read was converted")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
