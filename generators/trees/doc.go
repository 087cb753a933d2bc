// Package trees generates the rooted trees of the treefix paper
// (004_89a0ec3b389b4640.txt): stars, caterpillars (linked lists), random
// trees of a chosen number of levels, spanning trees of graphs read from
// Matrix Market files, and synthetic stand-ins for the ten SuiteSparse trees
// of the paper's Table I.
//
// A tree is a parent array (Parent[v] is v's parent, -1 for the root) plus
// one weight per vertex. Every generator is deterministic from its seed
// (math/rand/v2 PCG): the same seed gives the same tree on every machine.
//
// Depth follows the paper's Table I, where the average branching factor is
// "the ratio between the number of vertices and the number of levels"
// (504855 / 490 = 1030.32 for af_shell9): Depth counts levels, so a lone
// root has depth 1 and a caterpillar of n vertices has depth n.
package trees
