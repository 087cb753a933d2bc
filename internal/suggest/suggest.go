// Package suggest says which known names are closest to a mistyped one
// ("did you mean ...?"), by edit distance.
package suggest

import (
	"sort"
	"strings"
)

// Closest formats the names closest to name (by edit distance), or all
// names when none is close.
func Closest(name string, names []string) string {
	sort.Strings(names)
	var close []string
	for _, n := range names {
		if d := editDistance(name, n); d <= max(2, len(name)/3) || strings.Contains(n, name) {
			close = append(close, n)
		}
	}
	if len(close) > 0 {
		sort.SliceStable(close, func(i, j int) bool { return editDistance(name, close[i]) < editDistance(name, close[j]) })
		return "; did you mean " + strings.Join(close, ", ") + "?"
	}
	return "; known: " + strings.Join(names, ", ")
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
