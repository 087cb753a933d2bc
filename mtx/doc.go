// Package mtx reads and writes the Matrix Market exchange format, the plain
// text format in which semibench users hand in their own instances and take
// results back.
//
// Reading covers what the experiments need: the coordinate format (one
// "i j value" line per entry, 1-based indices) and the array format (every
// value, one per line, column-major), each with a real or integer field and
// general symmetry. Other fields (pattern, complex) and symmetries
// (symmetric, skew-symmetric, hermitian) are refused with an error that says
// so. Lines starting with % are comments; blank lines are ignored anywhere.
// A value written as an integer (digits and a sign, in either field) is
// read exactly or refused: one float64 (or, after SetBitSize(32), float32)
// cannot hold, such as 2^53+1, is an error naming its line, never rounded.
// A value written with a point or an exponent is a real, rounded to the
// nearest.
//
// Every error a reader returns is an *Error naming the file (as the caller
// passed it) and the line, and wraps one of the sentinel errors (ErrHeader,
// ErrSize, ErrEntry, ErrRange, ErrCount, ErrUnsupported) for errors.Is.
//
// Read loads a whole file into memory; Scanner streams the entries one by
// one, so callers that build their own representation (a dense max-plus
// matrix, say) never hold a second copy. Write and Writer produce the
// coordinate real general format. Indices in this package's API are 0-based;
// the files are 1-based.
package mtx
