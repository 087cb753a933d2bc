package bench

import "github.com/semibench/semibench/bench/internal/bounded"

// The limits of a result file, checked as it is read (ReadFile, and the
// Appender's reading of the file it appends to; bench/internal/bounded): a
// file, record or header field beyond them is an error naming the file
// and where, found before anything of that size is allocated.
const (
	MaxFileBytes   = bounded.MaxFileBytes   // a whole result file
	MaxRecordBytes = bounded.MaxRecordBytes // one record, as written
	MaxHeaderBytes = bounded.MaxHeaderBytes // one header field, or any string
)

// ErrTooLarge marks a result file, record or field beyond its limit.
var ErrTooLarge = bounded.ErrTooLarge
