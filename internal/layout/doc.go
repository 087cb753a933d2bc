// Package layout holds no code: its test checks the import rules of
// ARCHITECTURE.md on the whole module with `go list -deps`, and that every
// package sits in one of the top-level folders (a problem's own packages
// under problems/<p>).
package layout
