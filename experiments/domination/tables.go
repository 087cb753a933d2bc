package domination

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/bench/report"
	"github.com/semibench/semibench/experiments"
	"github.com/semibench/semibench/experiments/paperdata"
	"github.com/semibench/semibench/impls"
	"github.com/semibench/semibench/problems/domination"
)

// dominationRowsOf lists the m present in records, increasing.
func dominationRowsOf(recs ...[]bench.Record) []int {
	var ms []int
	for _, rs := range recs {
		for _, r := range rs {
			if m, err := strconv.Atoi(r.Params.Get("m")); err == nil && !slices.Contains(ms, m) {
				ms = append(ms, m)
			}
		}
	}
	slices.Sort(ms)
	return ms
}

// domExactRecord is the record of a case of Tables 3, 4, 6 or the
// formula: cpu/sparse's where it ran, cuda/sparse's otherwise (their
// values are equal, each run being checked against one reference).
func domExactRecord(rc experiments.Cells, exp string, p bench.Params) *bench.Record {
	var found *bench.Record
	for _, impl := range dominationExact {
		if r := rc.Get(exp, impl, p); r != nil && (found == nil || found.Status != bench.StatusOK && r.Status == bench.StatusOK) {
			found = r
		}
	}
	return found
}

func domMetricText(r *bench.Record, key string) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	v, ok := r.Metrics[key]
	if !ok {
		return "—"
	}
	return experiments.FormatCount(v)
}

// domMemText prints bytes in the paper's units (1 KB = 1024 bytes),
// moving to the next unit from half of it, as the paper does (0.85GB).
func domMemText(b float64) string {
	switch {
	case b >= 1<<29:
		return fmt.Sprintf("%.2fGB", b/(1<<30))
	case b >= 1<<19:
		return fmt.Sprintf("%.2fMB", b/(1<<20))
	}
	return fmt.Sprintf("%.2fKB", b/(1<<10))
}

// domPaperMem is the paper's printed memory ("0.69MB") from its metrics.
func domPaperMem(r *bench.Record) string {
	if r == nil {
		return "—"
	}
	for _, u := range []string{"kb", "mb", "gb"} {
		if v, ok := r.Metrics["memory_printed_"+u]; ok {
			return fmt.Sprintf("%.2f%s", v, strings.ToUpper(u))
		}
	}
	return "—"
}

func dominationTable1(run []bench.Record) []report.Table {
	const exp = "domination/table1"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	t := report.Table{
		Title:  "domination/table1 — size of A(D_m) (paper: Table 1, 16-bit integers)",
		Header: []string{"m", "rows (paper)", "rows", "memory (paper)", "memory", "arcs", "Algorithm 1, ms"},
	}
	for _, m := range dominationRowsOf(paper, own) {
		p := dominationParams(m)
		pr, r := pc.Get(exp, "cuda/paper", p), rc.Get(exp, "cpu/paper", p)
		pm, mm := domPaperMem(pr), "—"
		if r != nil && r.Metrics != nil {
			mm = domMemText(r.Metrics["memory_bytes"])
		}
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "rows"), domMetricText(r, "rows"), pm, mm, domMetricText(r, "arcs"), experiments.CellText(r, "algorithm1")})
	}
	t.Notes = append(t.Notes, "Rows are the correct m-words of section 2.2; memory is rows² × 2 bytes, in the paper's units (1 KB = 1024 bytes). "+
		"The paper's memory column rounds up at m = 3, 8, 9 and 11, and its m = 7 entry, 0.69MB, is 0.59MB by its own rule (a likely misprint).")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

// rate is Algorithm 2's nominal dense update rate, 49·N³ / total, in G/s
// (total: Algorithm 2's window, see domTable2Total).
func domRate(r *bench.Record, m int) string {
	v := experiments.PhaseMS(r, bench.TotalPhase)
	if math.IsNaN(v) || v <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", dominationWork(m)/(v*1e6))
}

// domTable2Total says what Table 2's figure is, for its CPU and GPU tables.
const domTable2Total = "Ours: total, the host clock around Algorithm 2 as the paper times it (its step 1, initialize A(D_m), inside; Algorithm 1 outside), from A(D_m) in host memory to the 50th power's statistics on the host: " +
	"on the CPU the powers' memory, the 49 products and the 50 summaries; on the GPU the device allocation, A's upload in CSR and its scatter, the 49 product launches and the 50 statistics passes, each synchronised (the powers stay on the device). " +
	"The paper's columns are its Algorithm 2 running times; ratios are paper / ours and ours / ours, all of the same span."

func dominationTable2(run []bench.Record) []report.Table {
	const exp = "domination/table2"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	t := report.Table{
		Title: "domination/table2 — Algorithm 2, 50 (min,+) powers of A(D_m): total, ms (paper: Table 2, its Algorithm 2 running time, EPYC 7642 and V100)",
		Header: []string{"m", "N", "paper sequential", "paper 48 threads", "paper GPU", "cpu/paper", "cpu/fast", "cpu/sparse",
			"G upd/s paper·fast·sparse", "paper seq / cpu/paper", "paper 48 thr / cpu/sparse", "cpu/paper / cpu/sparse"},
	}
	const tot = bench.TotalPhase
	for _, m := range dominationRowsOf(own, paper) {
		p := dominationParams(m)
		sl, fa, sp := rc.Get(exp, "cpu/paper", p), rc.Get(exp, "cpu/fast", p), rc.Get(exp, "cpu/sparse", p)
		ps, pm, pg := pc.Get(exp, "cpu/paper", p), pc.Get(exp, "cpu/openmp", p), pc.Get(exp, "cuda/paper", p)
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), experiments.FormatCount(float64(dominationRows(m))),
			experiments.CellText(ps, "algorithm2"), experiments.CellText(pm, "algorithm2"), experiments.CellText(pg, "algorithm2"),
			experiments.CellText(sl, tot), experiments.CellText(fa, tot), experiments.CellText(sp, tot),
			domRate(sl, m) + " · " + domRate(fa, m) + " · " + domRate(sp, m),
			experiments.Ratio(experiments.PhaseMS(ps, "algorithm2"), experiments.PhaseMS(sl, tot)),
			experiments.Ratio(experiments.PhaseMS(pm, "algorithm2"), experiments.PhaseMS(sp, tot)),
			experiments.Ratio(experiments.PhaseMS(sl, tot), experiments.PhaseMS(sp, tot))})
	}
	t.Notes = append(t.Notes, domTable2Total)
	t.Notes = append(t.Notes,
		"G upd/s is the nominal dense rate 49·N³ / total; cpu/fast and cpu/sparse skip A(D_m)'s infinite entries (density about 6% at m = 7, 2.5% at m = 9), so their nominal rate exceeds the updates done.",
		"cpu/fast's inner kernel here: "+impls.MinplusCPUKernel()+".")
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.ReusedNotes(run, exp, domReusedFigure)...)
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	out := []report.Table{t, dominationTable2GPU(own, pc, rc)}
	if peer, ok := dominationPeerTable(own, rc); ok {
		out = append(out, peer)
	}
	return out
}

// PeerTwoDomination is the impl name of the 2-domination paper's published
// code (hpcjmart/2domination) in the result files `semibench peers record` writes.
const PeerTwoDomination = "peer/2domination"

// dominationPeerTable puts the published code's runs beside ours, end to end
// on both sides, when the records given hold any (a peers file merged with
// a run: semibench table run.jsonl results/peers/<machine>/*.jsonl --merge).
func dominationPeerTable(own []bench.Record, rc experiments.Cells) (report.Table, bool) {
	const exp = "domination/table2"
	var ms []int
	for _, r := range own {
		if r.Impl == PeerTwoDomination {
			if m, err := strconv.Atoi(r.Params.Get("m")); err == nil && !slices.Contains(ms, m) {
				ms = append(ms, m)
			}
		}
	}
	if len(ms) == 0 {
		return report.Table{}, false
	}
	slices.Sort(ms)
	const e2e = bench.EndToEndPhase
	t := report.Table{
		Title:  "domination/table2 — the paper's published code (hpcjmart/2domination) beside ours on this machine: end_to_end, ms",
		Header: []string{"m", "N", "2domination (published)", "cuda/sparse", "cuda/fast", "cuda/paper", "2domination / cuda/sparse", "2domination / cuda/fast"},
	}
	for _, m := range ms {
		p := dominationParams(m)
		pr := rc.Get(exp, PeerTwoDomination, p)
		cs, cf, cp := rc.Get(exp, "cuda/sparse", p), rc.Get(exp, "cuda/fast", p), rc.Get(exp, "cuda/paper", p)
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), experiments.FormatCount(float64(dominationRows(m))),
			experiments.CellText(pr, e2e), experiments.CellText(cs, e2e), experiments.CellText(cf, e2e), experiments.CellText(cp, e2e),
			experiments.Ratio(experiments.PhaseMS(pr, e2e), experiments.PhaseMS(cs, e2e)), experiments.Ratio(experiments.PhaseMS(pr, e2e), experiments.PhaseMS(cf, e2e))})
	}
	t.Notes = append(t.Notes,
		"Both sides end_to_end, measured on this machine, on the same A(D_m) (semibench gen domination, handed to the published code as a dense text matrix): the published code's own 'Total time' of its main (reading the text matrix, the upload, 50 (min,+) powers each downloaded to the host, Algorithms 3-5 on the host); ours the whole call (Algorithm 1 building A(D_m), Algorithm 2 with the powers kept on the device, Algorithms 3-5). The published code has no window with the matrix already on the device, so there is no total to compare. Ratios above 1: ours is faster. Much of the published code's time is work ours does not do (parsing a text matrix, downloading every power): the ratio compares what each code does end to end, not the (min,+) kernels (cuda/paper is the paper's kernel in our harness, timed in the GPU table above).",
		"The published code's answers are checked against ours in its record (n0, a, b equal; its printed r0m is one above the paper's r0, which ours matches).")
	return t, true
}

// dominationTable2GPU is Table 2's GPU column beside ours: the paper's
// kernel (cuda/paper), the packed-int16 DPX kernel (cuda/fast) and the
// sparse product (cuda/sparse), the powers kept on the device.
func dominationTable2GPU(own []bench.Record, pc, rc experiments.Cells) report.Table {
	const exp = "domination/table2"
	t := report.Table{
		Title: "domination/table2 (GPU) — Algorithm 2, 50 (min,+) powers of A(D_m) on the GPU: total, ms (paper: Table 2, its Algorithm 2 running time, V100)",
		Header: []string{"m", "N", "paper GPU", "cuda/paper", "cuda/fast", "cuda/sparse", "T upd/s paper·fast",
			"paper GPU / cuda/paper", "paper GPU / cuda/fast", "paper GPU / cuda/sparse", "cuda/paper / cuda/sparse"},
	}
	paper, _ := paperdata.PaperRecords(exp)
	const tot = bench.TotalPhase
	for _, m := range dominationRowsOf(own, paper) {
		p := dominationParams(m)
		pg := pc.Get(exp, "cuda/paper", p)
		cp, cf, cs := rc.Get(exp, "cuda/paper", p), rc.Get(exp, "cuda/fast", p), rc.Get(exp, "cuda/sparse", p)
		tera := func(r *bench.Record) string {
			v := experiments.PhaseMS(r, tot)
			if math.IsNaN(v) || v <= 0 {
				return "—"
			}
			return fmt.Sprintf("%.2f", dominationWork(m)/(v*1e9))
		}
		t.Rows = append(t.Rows, []string{experiments.Itoa(m), experiments.FormatCount(float64(dominationRows(m))),
			experiments.CellText(pg, "algorithm2"), experiments.CellText(cp, tot), experiments.CellText(cf, tot), experiments.CellText(cs, tot),
			tera(cp) + " · " + tera(cf),
			experiments.Ratio(experiments.PhaseMS(pg, "algorithm2"), experiments.PhaseMS(cp, tot)),
			experiments.Ratio(experiments.PhaseMS(pg, "algorithm2"), experiments.PhaseMS(cf, tot)),
			experiments.Ratio(experiments.PhaseMS(pg, "algorithm2"), experiments.PhaseMS(cs, tot)),
			experiments.Ratio(experiments.PhaseMS(cp, tot), experiments.PhaseMS(cs, tot))})
	}
	t.Notes = append(t.Notes,
		domTable2Total,
		"Each GPU run keeps A and two powers on the device and brings back per power only its minimum, diagonal minimum (and where) and a fingerprint of the power minus its minimum. T upd/s is 49·N³ / total, the updates the dense kernels do; cuda/sparse does nnz(A)·N per product.",
		"Every run's 50 fingerprints, minima and diagonal minima equal the reference's (the check); the reference's recurrence A^(n0+a) = b ⊗ A^n0 is checked entry by entry.")
	return t
}

func dominationExactTable(run []bench.Record, exp string) []report.Table {
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc := experiments.IndexRecords(paper), experiments.IndexRecords(own)
	var t report.Table
	switch exp {
	case "domination/table3":
		t = report.Table{Title: "domination/table3 — Algorithm 3 (K = 50) beside the paper's Table 3",
			Header: []string{"m", "r0 (paper)", "r0", "a (paper)", "a", "b (paper)", "b", "Algorithm 3 paper seq · 48 thr · GPU", "Algorithm 3 fingerprints", "Algorithm 3 whole seq", "Algorithm 3 whole par", "Algorithm 2, ms"}}
	case "domination/table4":
		t = report.Table{Title: "domination/table4 — Algorithm 4 beside the paper's Table 4",
			Header: []string{"m", "n0 (paper)", "n0", "a (paper)", "a", "b (paper)", "b", "Algorithm 4 paper seq · 48 thr · GPU", "Algorithm 4 fingerprints", "Algorithm 4 whole seq", "Algorithm 4 whole par", "exact re-check"}}
	default:
		t = report.Table{Title: "domination/table6 — α_k^m of γ2(P_m □ C_n) = ⌈b n / a⌉ + α_k, k = n mod a, beside the paper's Table 6",
			Header: []string{"m", "a (paper)", "k with α = 1 (paper)", "k with α = 1", "k with α >= 2 (α)", "exceptions (paper)", "exceptions n (γ2)", "Algorithm 5 paper (CPU)", "Algorithm 5 fingerprints", "Algorithm 5 whole"}}
	}
	for _, m := range dominationRowsOf(own, paper) {
		p := dominationParams(m)
		pr, r := pc.Get(exp, "cuda/paper", p), domExactRecord(rc, exp, p)
		switch exp {
		case "domination/table3":
			t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "r0"), domMetricText(r, "r0"), domMetricText(pr, "a"), domMetricText(r, "a"),
				domMetricText(pr, "b"), domMetricText(r, "b"), domPaperTimes(pc, exp, p, "algorithm3"), experiments.CellText(r, "algorithm3"),
				experiments.CellText(rc.Get(exp, domWholeSeq, p), "algorithm3"), experiments.CellText(rc.Get(exp, domWholePar, p), "algorithm3"), experiments.ReusedPhaseText(run, r, "algorithm2")})
		case "domination/table4":
			how := "—"
			if r != nil && r.Check != nil {
				how = r.Check.Detail
				if i := strings.Index(how, "; "); i >= 0 {
					how = how[i+2:]
				}
				if i := strings.Index(how, ";"); i >= 0 {
					how = how[:i]
				}
			}
			t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "n0"), domMetricText(r, "n0"), domMetricText(pr, "a"), domMetricText(r, "a"),
				domMetricText(pr, "b"), domMetricText(r, "b"), domPaperTimes(pc, exp, p, "algorithm4"), experiments.CellText(r, "algorithm4"),
				experiments.CellText(rc.Get(exp, domWholeSeq, p), "algorithm4"), experiments.CellText(rc.Get(exp, domWholePar, p), "algorithm4"), how})
		default:
			t.Rows = append(t.Rows, []string{experiments.Itoa(m), domMetricText(pr, "a"), domAlphaText(pr, "alpha1_k"), domAlphaText(r, "alpha_k"), domAlphaHigh(r),
				domPaperExceptions(pr), domExceptionsText(r), experiments.CellText(pc.Get(exp, "cpu/paper", p), "algorithm5"), experiments.CellText(r, "algorithm5"),
				experiments.CellText(rc.Get(exp, domWholeSeq, p), "algorithm5")})
		}
	}
	t.Notes = append(t.Notes, domSearchNote)
	if exp == "domination/table6" {
		t.Notes = append(t.Notes, "The paper's m = 7 entry reads 'k ∈ {1,2,4,5}, 19 <= n ≡ k (mod 18)': the two exceptions n = 4, 5 here are those n. Its '*' marks the one exception n = 5 (m = 8, 10, 12); the text gives α = 2 there, which holds for m = 10 and 12, while at m = 8 γ2(P_8 □ C_5) = 18 = ⌈50/3⌉ + 1.")
	}
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.ReusedNotes(run, exp, domReusedSearch)...)
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{t}
}

// domSearchNote says what the time columns of Tables 3, 4 and 6 are.
const domSearchNote = "Times in ms. 'fingerprints': ours as the program runs it, Algorithms 3-5 reading each power's 128-bit fingerprint, minimum and diagonal minimum kept while Algorithm 2 ran (the match then checked entry by entry once). " +
	"'whole': " + domWholeSeq + " and " + domWholePar + ", Algorithms 3-5 as the paper computes them: all 50 powers kept in host memory (Algorithm 2 on cpu/sparse), each A^i - A^j the difference matrix computed entry by entry (on one thread, or by bands of rows on every thread, the paper's OpenMP) and scanned for one constant; Algorithm 5 reads A^n's diagonal. " +
	"The paper gives these times for m = 12 only (section 3): Algorithm 3 16.8 s sequential, 7.2 s with OpenMP (48 cores), 13.6 s on the GPU; Algorithm 4 149.8, 98.5, 170.0 s; Algorithm 5 11.8 s on the CPU. The whole search keeps 50 N x N powers (50 x 34.6 GB at m = 12)."

// domPaperTimes renders the paper's times of one algorithm at m as
// "sequential · 48 threads · GPU" (its records cpu/paper, cpu/openmp,
// cuda/paper), or "—" when it gives none at m.
func domPaperTimes(pc experiments.Cells, exp string, p bench.Params, phase string) string {
	var parts []string
	found := false
	for _, impl := range []string{"cpu/paper", "cpu/openmp", "cuda/paper"} {
		r := pc.Get(exp, impl, p)
		found = found || !math.IsNaN(experiments.PhaseMS(r, phase))
		parts = append(parts, experiments.CellText(r, phase))
	}
	if !found {
		return "—"
	}
	for i, x := range parts {
		if x == "" {
			parts[i] = "—"
		}
	}
	return strings.Join(parts, " · ")
}

// domPaperExceptions renders the exceptions Table 6 implies for a row:
// its '*' (n = 5) and, for m = 7, the n below 19 in the α = 1 classes.
func domPaperExceptions(pr *bench.Record) string {
	if pr == nil || pr.Metrics == nil {
		return "—"
	}
	n := table6Exceptions(pr)
	switch {
	case n == 0:
		return "0"
	case pr.Metrics["alpha1_from_n"] > 0:
		return fmt.Sprintf("%g (α = 1 only from n = %g)", n, pr.Metrics["alpha1_from_n"])
	case pr.Metrics["exception_n"] > 0:
		return fmt.Sprintf("%g: %g (α = 2, the text says)", n, pr.Metrics["exception_n"])
	}
	return fmt.Sprintf("%g", n)
}

func domAlphaText(r *bench.Record, prefix string) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	var ks []int
	for key, v := range r.Metrics {
		if strings.HasPrefix(key, prefix) && v == 1 {
			if k, err := strconv.Atoi(strings.TrimPrefix(key, prefix)); err == nil {
				ks = append(ks, k)
			}
		}
	}
	if len(ks) == 0 {
		return "none"
	}
	slices.Sort(ks)
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = experiments.Itoa(k)
	}
	return strings.Join(parts, ",")
}

// domAlphaHigh lists the k with α_k >= 2 as "k (α)"; the paper's Table 6
// has none for m <= 12.
func domAlphaHigh(r *bench.Record) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	var parts []string
	for k := 0; k < int(r.Metrics["a"]); k++ {
		if v := r.Metrics[fmt.Sprintf("alpha_k%d", k)]; v >= 2 {
			parts = append(parts, fmt.Sprintf("%d (%g)", k, v))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

func domExceptionsText(r *bench.Record) string {
	if r == nil || r.Metrics == nil {
		return "—"
	}
	var ns []int
	for key := range r.Metrics {
		if n, err := strconv.Atoi(strings.TrimPrefix(key, "exception_n")); err == nil && strings.HasPrefix(key, "exception_n") {
			ns = append(ns, n)
		}
	}
	if len(ns) == 0 {
		return "0"
	}
	slices.Sort(ns)
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprintf("%d (%g)", n, r.Metrics[fmt.Sprintf("exception_n%d", n)])
	}
	return fmt.Sprintf("%d: %s", len(ns), strings.Join(parts, ", "))
}

// domTable5Total says what Table 5's figures are.
const domTable5Total = "The paper's Table 5 times its program, Algorithms 2 to 5 (A(D_m) from Algorithm 1 is its input data). " +
	"'to n0+a' columns: this experiment's total, the host clock around Algorithms 2-5 with Algorithm 2 stopped at the first repetition of the powers minus their minimum (the reduction the paper's conclusion proposes). " +
	"K=50 columns: domination/table2's runs (the paper's procedure), their phase algorithms2to5, the host clock over the same span (Algorithms 2-5) measured in those runs, whose total covers Algorithm 2 alone. " +
	"On the GPU both spans start with A(D_m) in host memory and include the device allocation and A's upload."

// domTable5Versions says what our versions are.
const domTable5Versions = "Versions as the paper defines them (section 3), K = 50 powers, Algorithms 3-5 on the whole matrices (every power kept in host memory), total from A(D_m) in host memory to Algorithm 5's last γ2: " +
	"V1 " + domV1 + ": every algorithm sequential on the CPU (cpu/paper's triple loop on one thread, the differences on one thread); " +
	"V2 " + domV2 + ": the (min,+) product and the differences on every thread of this CPU (the paper's OpenMP, 48 cores there); " +
	"V3 " + domV3 + ": Algorithm 2 on the GPU (cuda/paper, each power downloaded to the host), each difference of Algorithms 3 and 4 on the GPU (both powers uploaded, the difference matrix and its summary computed there; device buffers allocated once per analysis, inside Algorithm 3); " +
	"V4 " + domV4 + ": Algorithm 2 on the GPU (cuda/paper, each power downloaded to the host), the differences on every CPU thread. " +
	"Algorithm 5 reads the diagonals on the host in every version. Ratios are paper / ours, above 1 when ours is faster."

func dominationTable5(run []bench.Record) []report.Table {
	const exp = "domination/table5"
	own := experiments.OfExperiment(run, exp)
	full := experiments.OfExperiment(run, "domination/table2")
	if len(own) == 0 && len(full) == 0 {
		return nil
	}
	paper, _ := paperdata.PaperRecords(exp)
	pc, rc, fc := experiments.IndexRecords(paper), experiments.IndexRecords(own), experiments.IndexRecords(full)
	t := report.Table{
		Title: "domination/table5 — total running times, Algorithms 2-5: total, ms (paper: Table 5, versions 1-4, its total running times)",
		Header: []string{"m", "paper V1 seq", "paper V2 48 thr", "paper V3 GPU", "paper V4 GPU+OpenMP",
			"V1 " + domV1, "V2 " + domV2, "paper V1 / ours", "paper V2 / ours",
			"cpu/paper K=50", "cpu/fast K=50", "cpu/sparse K=50", "cpu/paper to n0+a", "cpu/fast to n0+a", "cpu/sparse to n0+a"},
	}
	for _, m := range dominationRowsOf(own, full, paper) {
		p := dominationParams(m)
		row := []string{experiments.Itoa(m)}
		for _, impl := range domPaperVersions {
			row = append(row, experiments.CellText(pc.Get(exp, impl, p), "total"))
		}
		v1, v2 := rc.Get(exp, domV1, p), rc.Get(exp, domV2, p)
		row = append(row, experiments.CellText(v1, "total"), experiments.CellText(v2, "total"),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cpu/paper", p), "total"), experiments.PhaseMS(v1, "total")),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cpu/openmp", p), "total"), experiments.PhaseMS(v2, "total")))
		for _, impl := range dominationCPU {
			row = append(row, experiments.CellText(fc.Get("domination/table2", impl, p), domination.PhaseAlgorithms2to5))
		}
		for _, impl := range dominationCPU {
			row = append(row, experiments.CellText(rc.Get(exp, impl, p), "total"))
		}
		t.Rows = append(t.Rows, row)
	}
	t.Notes = append(t.Notes, domTable5Total, domTable5Versions)
	t.Notes = append(t.Notes, experiments.CheckSummary(run, exp))
	t.Notes = append(t.Notes, experiments.ReusedNotes(run, exp, domReusedFigure)...)
	t.Notes = append(t.Notes, experiments.StatusNotes(run, exp)...)
	g := report.Table{
		Title: "domination/table5 (GPU) — total running times, Algorithms 2-5 with Algorithm 2 on the GPU: total, ms (paper: Table 5, versions 3 and 4, its total running times, V100)",
		Header: []string{"m", "paper V3 GPU", "paper V4 GPU+OpenMP", "V3 " + domV3, "V4 " + domV4, "paper V3 / ours", "paper V4 / ours",
			"cuda/paper K=50", "cuda/fast K=50", "cuda/sparse K=50",
			"cuda/paper to n0+a", "cuda/fast to n0+a", "cuda/sparse to n0+a", "paper V3 / cuda/sparse to n0+a"},
	}
	for _, m := range dominationRowsOf(own, full, paper) {
		p := dominationParams(m)
		v3, v4 := rc.Get(exp, domV3, p), rc.Get(exp, domV4, p)
		row := []string{experiments.Itoa(m), experiments.CellText(pc.Get(exp, "cuda/paper", p), "total"), experiments.CellText(pc.Get(exp, "cuda/paper+cpu/openmp", p), "total"),
			experiments.CellText(v3, "total"), experiments.CellText(v4, "total"),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cuda/paper", p), "total"), experiments.PhaseMS(v3, "total")),
			experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cuda/paper+cpu/openmp", p), "total"), experiments.PhaseMS(v4, "total"))}
		for _, impl := range dominationGPU {
			row = append(row, experiments.CellText(fc.Get("domination/table2", impl, p), domination.PhaseAlgorithms2to5))
		}
		for _, impl := range dominationGPU {
			row = append(row, experiments.CellText(rc.Get(exp, impl, p), "total"))
		}
		row = append(row, experiments.Ratio(experiments.PhaseMS(pc.Get(exp, "cuda/paper", p), "total"), experiments.PhaseMS(rc.Get(exp, "cuda/sparse", p), "total")))
		g.Rows = append(g.Rows, row)
	}
	g.Notes = append(g.Notes, domTable5Total, domTable5Versions, "In the K=50 and to n0+a columns Algorithms 3-5 run on the host from the per-power statistics (no matrix comes back); the K=50 totals of the reference's exact re-check are not in these runs (each run is checked against the reference power by power).")
	return []report.Table{t, g}
}

// dominationFormulaTables lists γ2 and the formulas of the formula's
// cells; an m with an exactly checked Table 6 cell in the run but no formula
// cell (m = 13 when the formula's witnesses did not finish) is listed from
// that analysis, marked "no witnesses".
func dominationFormulaTables(run []bench.Record) []report.Table {
	const exp = "domination/formula"
	own := experiments.OfExperiment(run, exp)
	if len(own) == 0 {
		return nil
	}
	rc, t6 := experiments.IndexRecords(own), experiments.IndexRecords(experiments.OfExperiment(run, "domination/table6"))
	// rec is the record an m's column comes from, and whether it is Table 6's.
	rec := func(m int) (*bench.Record, bool) {
		p := dominationParams(m)
		if r := domExactRecord(rc, exp, p); r != nil && r.Status == bench.StatusOK {
			return r, false
		}
		if r := domExactRecord(t6, "domination/table6", p); r != nil && r.Status == bench.StatusOK {
			return r, true
		}
		return domExactRecord(rc, exp, p), false
	}
	ms := dominationRowsOf(own, experiments.OfExperiment(run, "domination/table6"))
	ms = slices.DeleteFunc(ms, func(m int) bool { r, _ := rec(m); return r == nil })
	values := report.Table{Title: "domination/formula — γ2(P_m □ C_n), each with a checked optimal 2-dominating set", Header: []string{"n"}}
	var fromT6 []string
	for _, m := range ms {
		h := "m=" + experiments.Itoa(m)
		if _, t := rec(m); t {
			h += " (no witnesses)"
			fromT6 = append(fromT6, experiments.Itoa(m))
		}
		values.Header = append(values.Header, h)
	}
	for n := 3; n <= 40; n++ {
		row := []string{experiments.Itoa(n)}
		for _, m := range ms {
			r, _ := rec(m)
			row = append(row, domMetricText(r, fmt.Sprintf("gamma2_n%d", n)))
		}
		values.Rows = append(values.Rows, row)
	}
	if len(fromT6) > 0 {
		values.Notes = append(values.Notes, "m = "+strings.Join(fromT6, ", ")+": γ2 and the formula from domination/table6's exactly checked analysis of this run; the formula's own cell (witnesses) did not finish.")
	}
	formulas := report.Table{Title: "domination/formula — the closed formulas derived by the program", Header: []string{"m", "n0", "a", "b", "formula"}}
	for _, m := range ms {
		r, t := rec(m)
		f := "—"
		switch {
		case t:
			f = domFormulaOfMetrics(m, r.Metrics)
		case r != nil && r.Check != nil:
			if i := strings.Index(r.Check.Detail, "γ2(P_"); i >= 0 {
				f = r.Check.Detail[i:]
			}
		}
		formulas.Rows = append(formulas.Rows, []string{experiments.Itoa(m), domMetricText(r, "n0"), domMetricText(r, "a"), domMetricText(r, "b"), f})
	}
	formulas.Notes = append(formulas.Notes, experiments.CheckSummary(run, exp))
	formulas.Notes = append(formulas.Notes, experiments.ReusedNotes(run, exp, "Those cells time only the witnesses.")...)
	formulas.Notes = append(formulas.Notes, experiments.StatusNotes(run, exp)...)
	return []report.Table{values, formulas}
}

// domFormulaOfMetrics renders an analysis' formula from its record's
// metrics (a, b, n0, α_k, the exceptions' γ2).
func domFormulaOfMetrics(m int, mt map[string]float64) string {
	an := &domination.Analysis{M: m, A: int(mt["a"]), B: int(mt["b"]), N0: int(mt["n0"])}
	if an.A <= 0 {
		return "—"
	}
	an.Alpha = make([]int, an.A)
	for k := range an.Alpha {
		an.Alpha[k] = int(mt[fmt.Sprintf("alpha_k%d", k)])
	}
	for n := 3; n < an.N0; n++ {
		if g, ok := mt[fmt.Sprintf("exception_n%d", n)]; ok {
			f := (an.B*n+an.A-1)/an.A + an.Alpha[n%an.A]
			an.Exceptions = append(an.Exceptions, domination.Exception{N: n, Gamma2: int(g), Formula: f})
		}
	}
	return an.Formula()
}
