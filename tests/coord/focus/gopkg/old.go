// Package focus has code a change did not touch (Score) and code it did
// (Check, whose changed version the test writes over this one).
package focus

// Score weighs letters, digits and spaces: branches the fuzzer reaches at
// once and then keeps finding combinations of.
func Score(b []byte) int {
	n := 0
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			n++
		case c >= 'A' && c <= 'Z':
			n += 2
		case c >= '0' && c <= '9':
			n += int(c-'0') * i
		case c == ' ':
			n *= 2
		default:
			n--
		}
	}
	return n
}
