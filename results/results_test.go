package results

import "testing"

// TestPaperFiles checks that every embedded paper table decodes, is marked
// as transcribed, and that the Kleene tables hold the paper's totals.
func TestPaperFiles(t *testing.T) {
	files, err := Paper()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("%d paper files, want at least 2", len(files))
	}
	for _, f := range files {
		if f.Source == "" {
			t.Errorf("%s: no source", f.Machine.Label)
		}
		for _, r := range f.Records {
			if r.Statistic != "paper" || len(r.Phases) == 0 {
				t.Errorf("%s: record %s not a transcribed table cell", f.Machine.Label, r.Key())
			}
		}
	}
	want := map[string]float64{"kleene/table2": 67249.1, "kleene/table3": 2292.5}
	for exp, total := range want {
		recs, _ := PaperRecords(exp)
		var got float64
		for _, r := range recs {
			if r.Params.Get("n") == "4000" {
				got = r.Phase("total").StatMS
			}
		}
		if got != total {
			t.Errorf("%s total at n=4000 = %v, want %v", exp, got, total)
		}
	}
}
