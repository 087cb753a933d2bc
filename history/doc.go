// Package history reads every run a repository holds, the result files in
// its tree and every version of a result file ever committed under
// results/ (read from git's objects, without a checkout), and answers what
// one run cannot: a cell's timeline over the repository's commits with
// the steps that lie beyond the noise between runs, and a claim's figure
// and class over the runs of one machine kind.
//
// A run is one result file's run, however many times it was committed:
// gzipped, moved or appended over several commits, it is the same run
// (identified by its header: start, machine, build, shard) and counts
// once, at its fullest version. A run names the semibench commit that
// made it; runs of one commit on one machine kind (label, CPU model, core
// count, GPU models: Kind) are replicates, whose spread is the noise
// between runs. Runs whose commit is not in the repository's history, or
// whose build was dirty, are listed apart and never make a step.
//
// Reading a few hundred blobs takes seconds, and judging a reproduce's
// claims about one: each run's summary (its header and records without
// their samples) is cached on disk by blob hash, and each run's claims by
// blob hash and the binary's build, so a second question of the same
// repository reads the cache.
package history
