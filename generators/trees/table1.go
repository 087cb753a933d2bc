package trees

import "fmt"

// Table1Tree is one row of the paper's Table I ("Suite of benchmark
// trees"): a spanning tree of a SuiteSparse matrix from the 10th DIMACS
// Implementation Challenge.
type Table1Tree struct {
	Name      string  // the SuiteSparse matrix name (the paper writes "af shell9" for af_shell9)
	N         int     // vertices
	Depth     int     // levels
	Branching float64 // average branching factor, N / Depth
}

// Table1 is the paper's Table I, transcribed exactly.
var Table1 = []Table1Tree{
	{"af_shell9", 504855, 490, 1030.32},
	{"audikw_1", 943695, 236, 3998.71},
	{"ldoor", 952203, 784, 1214.54},
	{"af_shell10", 1508065, 1098, 1373.47},
	{"G3_circuit", 1585478, 705, 2248.91},
	{"kkt_power", 2063494, 36, 57319.28},
	{"nlpkkt120", 3542400, 123, 28800.00},
	{"cage15", 5154859, 81, 63640.23},
	{"nlpkkt160", 8345600, 163, 51200.00},
	{"nlpkkt200", 16240000, 203, 80000.00},
}

// StandIn returns a synthetic stand-in for a Table I tree: a Random tree
// with the row's n and depth (so its average branching factor is the
// row's) and a Bell profile, scaled by 1/div in vertices (div >= 1; the
// depth is kept unless it would exceed the vertices). It is not the
// paper's tree: label it "stand-in" wherever it appears.
func StandIn(row Table1Tree, div int, seed uint64) (*Tree, error) {
	if div < 1 {
		return nil, fmt.Errorf("%w: stand-in divisor %d", ErrSize, div)
	}
	n := max(row.N/div, 1)
	return Random(n, min(row.Depth, n), Bell, seed)
}
