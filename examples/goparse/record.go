// Package goparse parses records like `name="Ada \"the first\"";id=7`: fields
// separated by ';', each `key=value`, values optionally double-quoted with
// backslash escapes. It is the example package that cgofuzz's demo fuzzes,
// and it has a planted bug for the fuzzer to find.
package goparse

import (
	"errors"
	"strings"
)

// ParseRecord returns the fields of a record, in order of appearance.
func ParseRecord(s string) ([][2]string, error) {
	var out [][2]string
	for len(s) > 0 {
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return nil, errors.New("field without key")
		}
		key := s[:eq]
		s = s[eq+1:]
		var val []byte
		if len(s) > 0 && s[0] == '"' {
			i := 1
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++ // the planted bug: no bounds check before the escaped byte
				}
				val = append(val, s[i])
			}
			if i >= len(s) {
				return nil, errors.New("unterminated quote")
			}
			s = s[i+1:]
		} else {
			end := strings.IndexByte(s, ';')
			if end < 0 {
				end = len(s)
			}
			val = []byte(s[:end])
			s = s[end:]
		}
		out = append(out, [2]string{key, string(val)})
		if len(s) > 0 {
			if s[0] != ';' {
				return nil, errors.New("junk after value")
			}
			s = s[1:]
		}
	}
	return out, nil
}
