package decimal

import "testing"

func TestIsInteger(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-12": true, "+7": true, "9007199254740993": true,
		"": false, "-": false, "+": false, "1.0": false, "1e3": false, "0x10": false, " 1": false, "1-": false,
	} {
		if got := IsInteger([]byte(s)); got != want {
			t.Errorf("IsInteger(%q) = %v, want %v", s, got, want)
		}
	}
}
