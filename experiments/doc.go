// Package experiments defines one Experiment per paper table or figure: its
// cases (inputs and parameters at each scale), the implementations it
// compares, the check every timing carries, and how its records render as
// tables beside the paper's numbers and as plots. Each paper's experiments
// live in one file that registers them at init, so a new paper adds a file
// and never touches the runner.
package experiments
