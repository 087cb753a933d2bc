// Package cudakleene holds the CUDA implementations of the Kleene star X*
// of a DAG in max-plus algebra (paper 000_c78fb6cc642483eb), the problem of
// package problems/kleene: cuda/paper, the paper's GPU design in today's
// CUDA, and cuda/fast, a blocked closure in topological order (Impls). Both
// return X* as a maxplus.Matrix equal to cpu/paper's on integer weights, bit
// for bit.
//
// Where CUDA is unavailable every implementation returns an error matching
// driver.ErrUnavailable.
package cudakleene
