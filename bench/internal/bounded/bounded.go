// Package bounded reads a result file's JSON document within the size
// limits of a result file, following its structure byte by byte, so that a
// file, record or header field beyond its limit is refused, naming where,
// before anything of that size is held (package bench's decoders read
// through it).
package bounded

import (
	"errors"
	"fmt"
	"io"
)

// The limits of a result file, checked as it is read: a file, record or
// header field beyond them is an error naming where, found before anything
// of that size is allocated. The largest committed files hold records of
// about 50 KB and are a few MB in all.
const (
	MaxFileBytes   = 256 << 20 // a whole result file
	MaxRecordBytes = 4 << 20   // one record, as written
	MaxHeaderBytes = 4 << 20   // one header field (the machine, the notes' strings), or any string
)

// MaxFile is MaxFileBytes, lowered by tests.
var MaxFile int64 = MaxFileBytes

// peekBytes is how much of a file that does not start as a JSON object is
// read, for the message saying what it is instead.
const peekBytes = 64 << 10

// ErrTooLarge marks a result file, record or field beyond its limit.
var ErrTooLarge = errors.New("beyond the size limit of a result file")

// boundedScan follows the JSON structure of a result file byte by byte, as
// far as the limits need: strings, nesting, the top object's keys, and the
// records of its "records" array.
type boundedScan struct {
	pos     int64 // bytes seen
	line    int   // current line, 1-based
	started bool  // a non-space byte was seen
	object  bool  // the file starts with '{'
	done    bool  // the top object closed

	depth       int
	inStr, esc  bool
	strStart    int64
	strLine     int
	expectKey   bool   // the next string at depth 1 is a key
	key         []byte // the last key at depth 1 (its first 16 bytes)
	capturing   bool
	inRecords   bool // inside the array of "records"
	record      int  // records opened so far
	boundStart  int64
	boundLine   int
	boundLimit  int64 // 0: no bounded value open
	boundDepth  int   // the depth inside the bounded value
	boundRecord int   // the record it is, or -1 for a header field
}

// Read reads a result file from r within the limits above. It
// returns the bytes read; for a file that does not start as a JSON object
// only the first peekBytes, and after the top object only what follows up
// to peekBytes more, which is enough for Decode to say what is wrong.
func Read(r io.Reader) ([]byte, error) {
	s := &boundedScan{line: 1, boundRecord: -1}
	var data []byte
	buf := make([]byte, 64<<10)
	var after int64 // bytes read after the top object closed
	for {
		n, err := r.Read(buf)
		chunk := buf[:n]
		if scanErr := s.scan(chunk); scanErr != nil {
			return nil, scanErr
		}
		data = append(data, chunk...)
		if s.done {
			after += int64(n)
		}
		switch {
		case s.started && !s.object && len(data) >= peekBytes,
			!s.started && len(data) > MaxHeaderBytes,
			s.done && after > peekBytes:
			return data, nil
		case int64(len(data)) > MaxFile:
			return nil, fmt.Errorf("larger than %d MiB, the most a result file may hold: %w", MaxFile>>20, ErrTooLarge)
		}
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// scan advances over chunk, failing at the first value beyond its limit.
func (s *boundedScan) scan(chunk []byte) error {
	for _, c := range chunk {
		if err := s.step(c); err != nil {
			return err
		}
		s.pos++
		if c == '\n' {
			s.line++
		}
	}
	return nil
}

// step takes one byte at s.pos.
func (s *boundedScan) step(c byte) error {
	if !s.started {
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			return nil
		}
		s.started, s.object = true, c == '{'
	}
	if !s.object || s.done {
		return nil
	}
	if s.boundLimit > 0 && s.pos-s.boundStart > s.boundLimit {
		if s.boundRecord >= 0 {
			return fmt.Errorf("line %d: record %d is larger than %d MiB, the most a record may hold (a damaged file?): %w", s.boundLine, s.boundRecord, s.boundLimit>>20, ErrTooLarge)
		}
		return fmt.Errorf("line %d: header field %q is larger than %d MiB, the most it may hold (a damaged file?): %w", s.boundLine, s.key, s.boundLimit>>20, ErrTooLarge)
	}
	if s.inStr {
		return s.stringByte(c)
	}
	switch c {
	case '"':
		s.inStr, s.strStart, s.strLine = true, s.pos, s.line
		s.capturing = s.depth == 1 && s.expectKey
		if s.capturing {
			s.key = s.key[:0]
		}
	case '{', '[':
		s.open(c)
	case '}', ']':
		s.depth--
		if s.boundLimit > 0 && s.depth < s.boundDepth {
			s.boundLimit = 0
		}
		if s.depth == 1 && c == ']' {
			s.inRecords = false
		}
		if s.depth == 0 {
			s.done = true
		}
	case ',':
		s.expectKey = s.depth == 1
	case ':':
		if s.depth == 1 {
			s.expectKey = false
		}
	}
	return nil
}

// stringByte takes a byte inside a string.
func (s *boundedScan) stringByte(c byte) error {
	switch {
	case s.esc:
		s.esc = false
	case c == '\\':
		s.esc = true
	case c == '"':
		s.inStr = false
		return nil
	}
	if s.capturing && len(s.key) < 16 {
		s.key = append(s.key, c)
	}
	if s.pos-s.strStart > MaxHeaderBytes {
		return fmt.Errorf("line %d: a string of more than %d MiB (a damaged file?): %w", s.strLine, MaxHeaderBytes>>20, ErrTooLarge)
	}
	return nil
}

// open takes '{' or '[' at the current depth: a header field's value at
// depth 1 (the records array and the notes are bounded by the file's limit,
// their elements each by their own), a record at depth 2 of the records.
func (s *boundedScan) open(c byte) {
	switch {
	case s.depth == 0:
		s.expectKey = true
	case s.depth == 1 && c == '[' && string(s.key) == "records":
		s.inRecords = true
	case s.depth == 1 && c == '{':
		s.bound(MaxHeaderBytes, -1)
	case s.depth == 2 && s.inRecords && s.boundLimit == 0:
		s.bound(MaxRecordBytes, s.record)
		s.record++
	}
	s.depth++
}

// bound starts a value at s.pos that may take at most limit bytes.
func (s *boundedScan) bound(limit int64, record int) {
	s.boundStart, s.boundLine, s.boundLimit, s.boundDepth, s.boundRecord = s.pos, s.line, limit, s.depth+1, record
}
