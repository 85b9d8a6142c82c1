package godict

import "testing"

// FuzzMapKey: one key of a map literal that the code never mentions
// (opcodes' keys are only in data); the keywords and units tables are
// looked up too, for the dictionary test.
func FuzzMapKey(f *testing.F) {
	f.Add("op-none")
	f.Fuzz(func(t *testing.T, s string) {
		if Opcode(s) == 17 {
			panic("godict: map key matched")
		}
		if IsKeyword(s) && Scale(s) > 0 {
			t.Fatal("a keyword is not a unit")
		}
	})
}
