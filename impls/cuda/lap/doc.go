// Package cudalap solves the linear assignment problem on NVIDIA GPUs:
// cuda/paper, the block-distributed O(n^4) Hungarian algorithm of the
// Hungarian paper (001_104f85080adea88a.txt); cuda/hungarian-n3, an O(n^3)
// Hungarian for its Fig. 6; and cuda/fast, the fastest exact solver here.
// Every solver returns a lap.Result (package problems/lap) that
// lap.Certify (duals) or lap.Agree (agreement with a certified result)
// checks. Impls lists the three on device 0; Paper, HungarianN3 and Fast
// take Options (device, recorder) directly.
package cudalap
