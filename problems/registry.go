// Package problems holds what is common to every problem package under it:
// the registry shape through which experiments and the CLI find an
// implementation by name.
//
// Each problem p has a package problems/p with what every backend of p
// shares (types, reference, verifier, I/O and the Impl type). Each backend
// package (impls/cpu/p, impls/cuda/p) exports its implementations as
// func Impls() []p.Impl, in display order, and package impls joins the
// backends of every problem into one Registry.
package problems

import (
	"fmt"
	"strings"
)

// Registry is the named implementations of one problem, in display order.
// The zero Registry is empty.
type Registry[I any] struct {
	nameOf func(I) string
	impls  []I
}

// NewRegistry joins the implementations of several backends. nameOf gives an
// implementation's name ("cpu/paper", "cuda/fast", ...). Names must be
// unique across backends: a repeated name is a programming error, so
// NewRegistry panics, and a test of package impls catches it.
func NewRegistry[I any](nameOf func(I) string, backends ...[]I) Registry[I] {
	r := Registry[I]{nameOf: nameOf}
	seen := map[string]bool{}
	for _, b := range backends {
		for _, im := range b {
			name := nameOf(im)
			if name == "" || seen[name] {
				panic(fmt.Sprintf("problems: implementation name %q empty or registered twice", name))
			}
			seen[name] = true
			r.impls = append(r.impls, im)
		}
	}
	return r
}

// Lookup returns the named implementation, or an error that lists the valid
// names.
func (r Registry[I]) Lookup(name string) (I, error) {
	for _, im := range r.impls {
		if r.nameOf(im) == name {
			return im, nil
		}
	}
	var zero I
	return zero, fmt.Errorf("unknown implementation %q (known: %s)", name, strings.Join(r.Names(), ", "))
}

// Names lists the implementation names in display order.
func (r Registry[I]) Names() []string {
	out := make([]string, len(r.impls))
	for i, im := range r.impls {
		out[i] = r.nameOf(im)
	}
	return out
}

// All returns the implementations in display order. The slice is a copy.
func (r Registry[I]) All() []I { return append([]I(nil), r.impls...) }

// Backend returns the implementations whose names start with prefix
// ("cpu/" or "cuda/"), in display order.
func (r Registry[I]) Backend(prefix string) []I {
	var out []I
	for _, im := range r.impls {
		if strings.HasPrefix(r.nameOf(im), prefix) {
			out = append(out, im)
		}
	}
	return out
}
