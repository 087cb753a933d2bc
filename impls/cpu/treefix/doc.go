// Package cputreefix computes +Rootfix and +Leaffix, the treefix operations
// of Leiserson and Maggs (defined in package problems/treefix, which holds
// the trees, the reference and the error models), on the CPU, four ways,
// after the treefix paper (004_89a0ec3b389b4640.txt).
//
// Implementations (Impls):
//
//   - cpu/sequential: one traversal over the children lists (CSR): Rootfix
//     top-down in breadth-first order, Leaffix bottom-up in reverse.
//   - cpu/parallel: the paper's Algorithm 1, level-synchronous breadth-first
//     search over CSR, with Merrill et al.'s load balancing on goroutines: a
//     prefix sum over the frontier's child counts R[i+1]-R[i] packs the
//     children to gather, and the workers split the packed positions evenly,
//     so a star's root with n-1 children is shared by every worker. The
//     output queue position of each child is its packed position: no lock.
//     Leaffix runs the same levels bottom-up, each vertex reducing its
//     children (a segmented reduction split the same way).
//   - cpu/vectorial: the paper's Algorithm 2 on the vector tree
//     representation of Fig. 2 (Vector: the Euler-tour positions "(V" and
//     "V)"): Write (E[(V[i]] = w[i], E[V)[i]] = -w[i]), an inclusive +scan
//     over the 2n entries (reduce-then-scan over goroutines), Read
//     (R[i] = E[(V[i]]). Its Leaffix twin writes 0 at V) and reads
//     R[i] = E[V)[i]] - E[(V[i]] + w[i].
//   - cpu/vectorial-compensated: the same write, scan and read with a wider
//     accumulator. On float32 weights whose exponents span few enough bits
//     (24 + span + bits(2n) + 1 <= 63; exact.go) the scan is exact, in
//     int64 fixed point, and every result is the exact value correctly
//     rounded; otherwise the scan is Ogita-Rump-Oishi's Sum2 in float64
//     (TwoSum of the running sum and each entry, the errors accumulated and
//     folded into every stored prefix). Rootfix stores each prefix rounded
//     back to float32, so its traffic is cpu/vectorial's; Leaffix keeps the
//     prefixes wide and subtracts them before the one rounding. treefix.Bound
//     (problems/treefix) gives the error bound of both paths. On float64
//     weights Leaffix keeps each prefix as its Sum2 pair (running sum and
//     compensation) and subtracts the pairs, TwoSum of the sums exact: a
//     rounded float64 prefix would carry u·|E| into a difference that may
//     be far smaller (a small subtree late in the tour).
//
// cpu/vectorial's Leaffix errs with the sums of the tour before a vertex,
// not with its subtree (treefix.VectorialLeaffixBound, which `solve`'s
// check applies to it).
//
// Which algebra each needs: sequential and parallel only combine (a
// monoid: associative with identity); the vectorial algorithm needs an
// abelian group: Rootfix cancels a leaving subtree with the inverse -w,
// Leaffix subtracts two prefixes, and both reorder terms (commutativity).
// The implementations run + on machine numbers (treefix.Number).
// Floating-point + is not associative: the implementations differ by
// rounding, which the accuracy experiment measures; on integers (no
// overflow) all agree exactly.
package cputreefix
