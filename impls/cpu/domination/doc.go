// Package domination lists the CPU implementations of the 2-domination
// analysis (problems/domination): Algorithms 1 to 5 with each CPU (min,+)
// product of impls/cpu/minplus, and the paper's whole-matrix versions of
// Algorithms 3 to 5 (its Table 5 versions 1 and 2).
package domination
