// Package stats holds the statistics semibench's verdicts rest on: the
// comparison of two sets of timed samples and the rule that decides when a
// cell has enough samples for the claims that read it. It is a leaf: it
// imports nothing of semibench.
package stats
