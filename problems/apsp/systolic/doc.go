// Package systolic simulates Rote's hexagonal systolic arrays GJE0 and
// GJE1 ("A systolic array algorithm for the algebraic path problem",
// Computing 34, 1985, sections 5-7) at the level of processors,
// connections and steps, in any semiring, and reports what the paper
// claims: (n+1)² processors, c_11 leaving 4n+1 steps after it enters, c_nn
// leaving 7n-2 steps after c_11 entered, at most a third of the processors
// active at once, utilization one half for GJE0 on three tracks and one for
// GJE1 (Simulate, Run). The result is exactly sGJE's, operation for
// operation, which the tests check in the real, min-plus, max-plus and
// Boolean semirings and for the direct inverse (InverseOps).
//
// Beyond GJE0 and GJE1 on n×n matrices the package simulates (variants.go):
// GJE1 with matrices of any order m ≤ n on the (n+1)×(n+1) array, fed back
// to back on three tracks (MixedStarts; an m×m matrix is the n×n input
// with the elements of rows and columns beyond m absent, so its data take
// the paths they take in an n×n matrix and c_mm leaves 4n+3m-2 steps after
// c_11 entered); the number of tracks and the shortest conflict-free
// period found by search on the simulated register use (SearchSchedule)
// instead of taken from the paper; the folded wedge GJE\ (SimulateWedge)
// and the unidirectional array of the report the paper cites
// (SimulateUnidirectional), both from traced simulations, with the readings
// of the paper they rest on in their doc comments; and the number of
// computations changing each element (Run.ActiveNodes, the paper's "active
// nodes").
//
// # Geometry
//
// The paper's figures (1-12) did not survive the text extraction; the
// geometry below is reconstructed from the text. Every choice is listed
// with the sentence it rests on. The simulation has no conflicts and
// reproduces every number of the paper, which is the evidence that the
// reconstruction is right (or at least equivalent).
//
// Coordinates. Processor P(p, q), 0 ≤ p, q ≤ n, sits at height (p+q)/2 and
// horizontal position (p-q)·√3/2: the "(n+1)×(n+1) hexagonal array ...
// arranged in a diamond shape" is wider than tall, with the bottom corner
// P(0,0), the top corner P(n,n), the left corner P(0,n) and the right
// corner P(n,0). Its four edges are q = 0 (bottom right), p = 0 (bottom
// left), q = n (top left) and p = n (top right).
//
// Connections. Every processor sends to three neighbours: up
// (P(p+1,q+1)), down-right (P(p,q-1)) and down-left (P(p-1,q)); all three
// have unit length. One register per connection (two on the vertical
// ones in GJE1). Choice: the edges run parallel to the diagonal
// directions, so a datum moving down-left along the top-left edge stays on
// it (this is how the stars, computed in the top corner, reach the B_O
// processors of that edge).
//
// Types (Fig. 2, the text of section 5 and the count "n² processors (not
// counting D_I, D_O and E)"):
//
//	A    interior, 0<p<n, 0<q<n            (n-1)²   c' = c ⊕ a⊗b
//	B_I  bottom-left edge p=0, 0<q<n        n-1     b' = a⊗b, sent up
//	B_O  top-left edge q=n, 0<p<n           n-1     c' = c⊗b, sent down-right
//	C    top corner (n,n)                    1      c' = c*, sent down-left
//	D_I  bottom-right edge q=0, 0≤p<n        n      delay, sent up
//	D_O  top-right edge p=n, 0≤q<n           n      delay, sent down-left
//	E    left corner (0,n)                   1      down-left in, down-right out
//
// A, B_I, B_O and C are the n² computing processors. The bottom corner
// (0,0) and the right corner (n,0) each lie on two edges; choice: the bottom
// corner is a D_I (it receives the diagonal elements from below and, after
// their trip along the bottom-left edge, from the top left, and sends both
// up: no computation happens there) and the right corner a D_O. No datum
// ever passes the right corner: it is in the count but idle.
//
// Inputs and operands. c comes from below (moving up), a from the top left
// (moving down-right), b from the top right (moving down-left); "c_ik enters
// the processor always from the top left and c_kj from the top right" (Fig.
// 7). Only data moving up are changed, except at the bottom-left edge,
// where B_I multiplies the datum arriving down-left by the diagonal
// element arriving down-right along that edge ("it changes its value ...
// when it marches upward or hits the left edge").
//
// Input. Element c_ij moves on the vertical line p - q = j - i: the lower
// triangle (i > j) on the left, the diagonal in the middle, the upper
// triangle on the right ("the left half of the data (corresponding to the
// lower triangular half ...) is reflected towards the right side ..."). It
// enters at the bottom-border processor of its line, P(j-i, 0) or
// P(0, i-j), put on the input line at step i + j + max(i, j) - 3 after c_11
// (EntryStep) and handled there one step later. This is the rigid shape of
// Fig. 1 (the matrix turned by 45 degrees, consecutive diagonal elements
// three steps apart, so c_nn enters 3(n-1) steps after c_11 as the text
// says). Choice: the shape is symmetric about the middle line, the diagonal
// element c_ii entering 3(i-1) steps after c_11 and a row or column moving
// away from the diagonal by one line costing one step on its side of the
// diagonal and two on the other (c_12 enters at step 2 behind P(1,0), c_21
// at step 2 behind P(0,1); both are one step higher than P(0,0)). With these
// times c_ik and c_kj meet c_ij at P(n-i+k, n-j+k) at step n+i+j+k-2 in
// phase 1, and the diagonal element c_ii meets c_ij at the B_I or B_O
// processor where operation B needs it; the simulation finds no other
// meeting.
//
// Reflections (section 5): up at the top-left edge → down-right; up at the
// top-right edge or the top corner → down-left ("this last case has been
// decided arbitrarily"); down-right at the bottom-right edge → up;
// down-left at the bottom-left edge → up; at the left corner E the
// down-left → up → down-right pair is merged into one turn. Each element is
// reflected at the top twice and leaves the third time it reaches the top,
// on its original line: 3n steps later than a straight passage.
//
// Steps. At step 0 the outside world puts c_11 on its input line. At each
// step t ≥ 1 every processor reads the registers its neighbours (or the
// input lines) wrote at step t-1 and writes its output registers; an
// element "leaves" at the step its top-border processor writes it to the
// output line. So c_11 is handled by P(0,0) at step 1, has its star taken
// at the top corner at step n+1, and leaves at step 4n+1; c_nn leaves at
// 7n-2, the last step.
//
// Flags (section 7). Each datum carries a flag counting its reflections at
// the top (0, 1 or 2; with "empty" that is the paper's two bits). B_O, D_O
// and C reflect (and, B_O and C, compute) a datum with flag 0 or 1 and
// increment the flag; they output a datum with flag 2. E increments the
// flag too (its merged turn contains a top reflection). An A processor
// meeting a (flag f_a) and b (flag f_b) combines them with the c of flag
// f_a + f_b - 2: phase 1 meets (1, 1) with a c of flag 0, phase 2 meets
// (2, 1) or (1, 2) with flag 1, phase 3 meets (2, 2) with flag 2. In GJE0
// this is a check (a mismatch counts as a conflict); in GJE1 it is the rule
// that picks which of the two c's on the doubled vertical connection
// computes ("by looking at the flags of the other two inputs the question
// may be decided"); the two c's there always have flags 0 and 2 (the
// paper's "reflected twice and the other not once"), and the lane of a c
// is its flag: flag 2 in the second register, 0 or 1 in the first.
//
// Activity. A processor is active in a step when it computes: A with a, b
// and c present, B_I with a and b, B_O reflecting a c, C taking a star.
// For one matrix the largest number active in a step comes out as
// ⌊(n²+2)/3⌋ for every n tried (1 to 40, 64, 128, 256): below a third of the (n+1)²
// processors, as the paper says, though a hair above a third of the n²
// computing ones.
// Empty registers hold the zero and would make the operations identities,
// as in the paper; the simulator keeps an explicit empty mark and counts a
// conflict where the paper's design guarantees none could arise (a and b
// meeting without a c, two data for one register, input from below while
// other data arrive at the border).
//
// Tracks. Matrix m of a stream enters on track m mod 3, its c_11 at step
// track + (m div 3)·period, with period 6n for GJE0 and 3n for GJE1
// (section 6). The utilization is the number of operations (sGJE
// assignments, n³ per matrix) in one period of the periodic regime
// divided by n² times the period (SteadyState).
package systolic
