// Package report renders result files: tables in text, Markdown and CSV,
// plots in PNG and SVG, side-by-side comparisons of machines and scales, and
// the Go benchmark format that benchstat reads. It reads what package bench
// records and is never imported by an implementation.
package report
