// Package layout holds no code: its test checks the import rules of
// ARCHITECTURE.md on the whole module with `go list` (dependencies, and
// direct imports where a rule is about them: experiments import no
// backend, a paper package no other paper's, a package of internal/ no
// semibench package outside internal/), that every package sits in one of
// the top-level folders (a problem's own packages under problems/<p>),
// that nothing outside the toy paper (example/) depends on it, and that no
// non-test, non-generated Go file holds more than 800 lines. The toy
// paper's packages mirror the module's folders and are held to the rules
// of the packages they mirror. A second test holds ARCHITECTURE.md to the
// code: every module path it quotes exists, and every identifier it
// qualifies by a package is declared.
package layout
