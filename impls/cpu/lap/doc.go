// Package lap solves the linear assignment problem on the CPU: given an
// r x c cost matrix with r <= c, assign every row a distinct column so that
// the total cost is minimal (or maximal, by negation).
//
// Four algorithms, named as the experiments name them:
//
//   - cpu/paper: the O(n^4) Hungarian algorithm in the six-step formulation
//     of Lopes et al. (JPDC 2019, section 2.1), with the paper's data
//     structures (slack matrix, compressed vector of zeros, stars, primes,
//     covers), single thread, each step timed as a phase "step1".."step6"
//     (after "init", the slack matrix's allocation and copy).
//     It is O(n^4) in the worst case, and meets it on structured costs:
//     c_ij = i·j at n = 500 takes longer than 20 s (one new zero per step 6),
//     where the other three take under 0.2 s.
//   - cpu/hungarian-n3: the O(n^3) Hungarian algorithm, one row at a time,
//     with slack arrays for the dual update (Lawler; Tomizawa).
//   - cpu/jv: Jonker-Volgenant shortest augmenting path (column reduction,
//     reduction transfer, augmenting row reduction, Dijkstra-like
//     augmentation), phases "init", "arr", "augment".
//   - cpu/auction: Bertsekas' forward auction with epsilon scaling, exact on
//     integer costs: benefits are the costs scaled by n+1, and the last phase
//     runs with epsilon 1 in those units (below 1 in the original ones).
//
// # Costs and overflow
//
// Costs are int64. A matrix is accepted when every |c_ij| is at most
// MaxAbsCost(c) (so that sums of a row's worth of costs, the duals and the
// auction's scaled benefits all fit in int64 with a margin); larger costs
// give ErrOverflow, never a wrong answer. Float64 costs are solved by the
// algorithms that need no integrality (cpu/jv, cpu/hungarian-n3, cpu/paper)
// in float64 arithmetic; cpu/auction refuses them with ErrNeedsIntegers.
//
// # Rectangular problems
//
// With r < c every row is assigned and c - r columns stay free. The
// Hungarian variants reduce rows only; cpu/jv runs only its augmentation
// phase; cpu/auction adds c - r virtual rows of cost zero.
//
// # Certificates
//
// An assignment with duals u, v is optimal iff u_i + v_j <= c_ij for all
// (i, j) (dual feasibility), equality holds on the assignment (complementary
// slackness) and, when r < c, no free column has a smaller v_j than an
// assigned one. Certify checks this exactly on integer costs. The auction
// has no exact duals: its results are checked by cost against a certified
// one.
package lap
