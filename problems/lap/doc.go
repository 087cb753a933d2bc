// Package lap is what every backend of the linear assignment problem
// shares: given an r x c cost matrix with r <= c, assign every row a
// distinct column so that the total cost is minimal (or maximal, by
// negation).
//
// It holds the instance and answer types (Matrix, FloatMatrix, Result,
// FloatResult), the Impl type every backend lists its implementations as
// (impls/cpu/lap and impls/cuda/lap export func Impls() []Impl; package
// impls joins them into impls.LAP), the optimality certificate (Certify,
// CertifyFloat, Agree), the reference solver (SolveJV, Jonker-Volgenant,
// registered as cpu/jv), the cost-file reader (ReadCosts) with Solve, the
// checked solve of `semibench solve lap`, and the phase names of the
// paper's O(n^4) Hungarian (PaperSteps).
//
// # Costs and overflow
//
// Costs are int64. A matrix is accepted when every |c_ij| is at most
// MaxAbsCost(c) (so that sums of a row's worth of costs, the duals and the
// auction's scaled benefits all fit in int64 with a margin); larger costs
// give ErrOverflow, never a wrong answer. Float64 costs are solved by the
// implementations whose Impl has a SolveFloat; the others refuse them with
// ErrNeedsIntegers.
//
// # Certificates
//
// An assignment with duals u, v is optimal iff u_i + v_j <= c_ij for all
// (i, j) (dual feasibility), equality holds on the assignment (complementary
// slackness) and, when r < c, no free column has a smaller v_j than an
// assigned one. Certify checks this exactly on integer costs. An
// implementation without exact duals (cpu/auction) is checked by cost
// against a certified one (Agree).
//
// A batch's optima are proven with no tolerance by CertifyOptima, float
// costs included when they lie on a binary grid (OnGrid: float32 costs
// k·2^-24 become the integers k); Optima.Check holds answers to them, an
// objective summed in float32 within the rounding bound of its sum
// (SumBound).
package lap
