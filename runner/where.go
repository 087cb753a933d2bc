package runner

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/semibench/semibench/bench"
	"github.com/semibench/semibench/experiments"
)

// Where selects cells by their parameters (`semibench run --where`): a
// case runs when, for every parameter named, its value is one of the
// values listed. The zero Where selects every case.
type Where map[string][]string

// ParseWhere reads "NAME=VALUE[|VALUE...][,NAME=...]", e.g.
// "n=8192,range=n|10n". A name given twice is an error.
func ParseWhere(s string) (Where, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	w := Where{}
	for _, cond := range strings.Split(s, ",") {
		name, vals, ok := strings.Cut(strings.TrimSpace(cond), "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.TrimSpace(vals) == "" {
			return nil, fmt.Errorf("%q: want NAME=VALUE[|VALUE...], conditions separated by commas", cond)
		}
		if _, dup := w[name]; dup {
			return nil, fmt.Errorf("parameter %q given twice (list its values with |)", name)
		}
		for _, v := range strings.Split(vals, "|") {
			if v = strings.TrimSpace(v); v == "" {
				return nil, fmt.Errorf("%q: an empty value", cond)
			}
			w[name] = append(w[name], v)
		}
	}
	return w, nil
}

// Match reports whether a case's parameters satisfy every condition.
func (w Where) Match(p bench.Params) bool {
	for name, vals := range w {
		if !slices.Contains(vals, p.Get(name)) {
			return false
		}
	}
	return true
}

// CheckWhere fails, before any work, when a condition names a parameter
// no case of the experiments has at this scale (naming the parameters
// they have) or when no case matches them all.
func CheckWhere(exps []*experiments.Experiment, s experiments.Scale, opt experiments.Options, w Where) error {
	if len(w) == 0 {
		return nil
	}
	names := map[string]bool{}
	matched := false
	for _, e := range exps {
		for _, c := range e.Cases(s, opt) {
			for _, p := range c.Params {
				names[p.Name] = true
			}
			matched = matched || w.Match(c.Params)
		}
	}
	for name := range w {
		if !names[name] {
			var have []string
			for n := range names {
				have = append(have, n)
			}
			sort.Strings(have)
			return fmt.Errorf("no case has a parameter %q (they have: %s)", name, strings.Join(have, ", "))
		}
	}
	if !matched {
		return fmt.Errorf("no case at scale %s matches every condition", s)
	}
	return nil
}
