package godict

// Strings that are in no instruction of the package, only in its data
// (docs/godict.md): the binary's dictionary takes them from there.

// opcodes is a map literal of more than 25 entries: Go fills it in
// godict.map.init.0 (godict.init before Go 1.21) by a loop over two
// static arrays, keys and values, that have no symbol of their own.
var opcodes = map[string]int{
	"op-nop": 0, "op-load": 1, "op-store": 2, "op-push": 3, "op-pop": 4,
	"op-add": 5, "op-sub": 6, "op-mul": 7, "op-div": 8, "op-mod": 9,
	"op-and": 10, "op-or": 11, "op-xor": 12, "op-shl": 13, "op-shr": 14,
	"op-jmp": 15, "op-jz": 16, "op-trap-door": 17, "op-call": 18,
	"op-ret": 19, "op-cmp": 20, "op-neg": 21, "op-not": 22, "op-dup": 23,
	"op-swap": 24, "op-rot": 25, "op-halt": 26, "op-in": 27, "op-out": 28,
	"op-yield": 29,
}

// keywords is a package-level []string: a slice header in .data pointing
// to an array of string headers (also without a symbol).
var keywords = []string{"kw-select", "kw-frobnicate", "kw-quux", "kw-zephyr"}

// units is an array of structs, the string headers in its own symbol.
var units = [...]struct {
	name  string
	scale int
}{{"unit-kibi", 1 << 10}, {"unit-mebi", 1 << 20}, {"unit-gibi", 1 << 30}}

// Opcode returns the opcode named s, or -1.
func Opcode(s string) int {
	if v, ok := opcodes[s]; ok {
		return v
	}
	return -1
}

// IsKeyword reports whether s is one of keywords.
func IsKeyword(s string) bool {
	for _, k := range keywords {
		if k == s {
			return true
		}
	}
	return false
}

// Scale returns the scale of the unit named s, or 0.
func Scale(s string) int {
	for _, u := range units {
		if u.name == s {
			return u.scale
		}
	}
	return 0
}
