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
// Types, the certificate and the reference solver are package
// problems/lap's (cpu/jv is its SolveJV); Impls lists the four. Float64
// costs are solved by cpu/jv, cpu/hungarian-n3 and cpu/paper in float64
// arithmetic; cpu/auction refuses them with lap.ErrNeedsIntegers.
//
// # Rectangular problems
//
// With r < c every row is assigned and c - r columns stay free. The
// Hungarian variants reduce rows only; cpu/jv runs only its augmentation
// phase; cpu/auction adds c - r virtual rows of cost zero.
//
// # Certificates
//
// Every algorithm but the auction returns duals that lap.Certify checks
// exactly. The auction has no exact duals: its results are checked by cost
// against a certified one (lap.Agree).
package lap
