// Package bench holds what every experiment shares: the timing protocol
// (warm-up, repetitions, every sample kept, median and the paper's own
// statistic), phase recording, machine information, the versioned result-file
// schema with atomic, append-per-record writes, and the renderers that turn
// result files into tables, plots, side-by-side comparisons and Go benchmark
// format.
package bench
