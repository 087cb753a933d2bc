// Package bench is the measuring core every implementation records into: the
// timing protocol (warm-up, repetitions, every sample kept, median and the
// paper's own statistic), phase recording, machine information, and the
// versioned result-file schema (JSON Lines, a record appended a line).
//
// Rendering lives apart, in bench/report, so that an implementation package
// that records a phase does not pull in plotting or table libraries.
package bench
