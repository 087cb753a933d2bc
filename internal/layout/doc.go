// Package layout holds no code: its test checks the import rules of
// ARCHITECTURE.md on the whole module with `go list` (dependencies, and
// direct imports where a rule is about them: experiments import no
// backend, a paper package no other paper's), that every package sits in
// one of the top-level folders (a problem's own packages under
// problems/<p>), and that no package holds more than 2,500 lines of
// non-test Go. The toy paper's packages under internal/example/ mirror the
// module's folders and are held to the rules of the packages they mirror.
// A second test holds ARCHITECTURE.md to the code: every module path it
// quotes exists, and every identifier it qualifies by a package is declared.
package layout
