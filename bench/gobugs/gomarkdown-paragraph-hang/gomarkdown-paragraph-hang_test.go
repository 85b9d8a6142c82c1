package bug

import (
	"testing"

	"github.com/gomarkdown/markdown"
)

// Native version of the project's own go-fuzz target (fuzz.go):
//
//	func Fuzz(data []byte) int { Parse(data, nil); return 0 }
func FuzzParse(f *testing.F) {
	f.Add([]byte("# Title\n\nSome *emphasis* and **strong** text with `code`.\n"))
	f.Add([]byte("- item one\n- item two\n  1. nested\n  2. list\n\n> quote\n"))
	f.Add([]byte("~~~go\nfunc main() {}\n~~~\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"))
	f.Add([]byte("Term\n: definition\n\n[link](http://example.com) and ![img](a.png)\n\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		markdown.Parse(data, nil)
	})
}
