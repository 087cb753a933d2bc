package experiments

import (
	"fmt"
	"sort"
	"strings"

	"github.com/semibench/semibench/bench"
)

// CheckWhere fails, before any work, when a condition names a parameter
// no case of the experiments has at this scale (naming the parameters
// they have) or when no case matches them all.
func CheckWhere(exps []*Experiment, s Scale, opt Options, w bench.Where) error {
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
