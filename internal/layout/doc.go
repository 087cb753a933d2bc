// Package layout holds no code: its test checks the import rules of
// ARCHITECTURE.md on the whole module with `go list -deps`.
package layout
