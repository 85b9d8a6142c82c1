package godict

import "testing"

// FuzzTagChain: three tags in order, each in one seed only (the dictionary
// gets them from the seeds' parts; a crossover brings them together).
func FuzzTagChain(f *testing.F) {
	f.Add([]byte("<html><head>x</head></html>"))
	f.Add([]byte("<svg width=1><circle/></svg>"))
	f.Add([]byte("<form><select><option>a</select></form>"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if TagChain(b) {
			panic("godict: tag chain matched")
		}
	})
}

// FuzzLineNumber: a decimal number at the limit of int64.
func FuzzLineNumber(f *testing.F) {
	f.Add("text\nline 10\nmore text\n")
	f.Fuzz(func(t *testing.T, s string) {
		if LineNumbers(s) {
			panic("godict: line number overflowed")
		}
	})
}
