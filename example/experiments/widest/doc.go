// Package widest holds the experiment of the toy paper (example/),
// declared by Paper and registered by Register, as an experiments/<paper>
// package does for a real paper: Table 1 (widest-path closure times of
// repeated squaring and Floyd–Warshall) beside the paper's figures, with
// one claim.
//
// Unlike a real paper's, the paper's figures (paper.jsonl, invented) and
// the claim's tolerance live here, not in a paper/ folder registered with
// experiments/paperdata, and no
// experiments/papers line registers it: the example stays out of the five
// papers' run, and only the example package's test registers it.
package widest
