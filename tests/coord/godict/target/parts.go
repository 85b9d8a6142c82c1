package godict

import "strconv"

// nameHash is FNV-1a: the tag names TagChain wants are compared by hash,
// so they are in no instruction and no string literal of the binary, only
// in the seeds.
func nameHash(s []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range s {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

var chain = [...]uint32{nameHash([]byte("svg")), nameHash([]byte("head")),
	nameHash([]byte("select"))}

// TagChain reports whether b opens the tags svg, head and select in that
// order, with no other tag between them: one step per tag, each a branch
// of its own, as an HTML parser's insertion modes are.
func TagChain(b []byte) bool {
	state := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '<' {
			continue
		}
		j := i + 1
		for j < len(b) && b[j] != '>' && b[j] != ' ' && b[j] != '<' {
			j++
		}
		h := nameHash(b[i+1 : j])
		switch {
		case state == 0 && h == chain[0]:
			state = 1
		case state == 1 && h == chain[1]:
			state = 2
		case state == 2 && h == chain[2]:
			return true
		default:
			state = 0
		}
		i = j - 1
	}
	return false
}

// LineNumbers reports whether a "line N" directive of s has a number whose
// next line would overflow int64 (go/scanner's //line bug of go1.20.2,
// CVE-2023-24537): only math.MaxInt64 does, and the code holds no such
// constant.
func LineNumbers(s string) bool {
	for len(s) > 0 {
		line := s
		if i := indexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if len(line) < 6 || line[:5] != "line " {
			continue
		}
		n, err := strconv.ParseInt(line[5:], 10, 64)
		if err == nil && n > 0 && n+1 < 0 {
			return true
		}
	}
	return false
}

func indexByte(s string, c byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return i
		}
	}
	return -1
}
