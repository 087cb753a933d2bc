// Package decimal tells the forms of decimal numbers in the text formats
// semibench reads (Matrix Market files, LAP cost files).
package decimal

// IsInteger reports whether b is a decimal integer: an optional sign and
// one or more digits, nothing else.
func IsInteger(b []byte) bool {
	if len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		b = b[1:]
	}
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
