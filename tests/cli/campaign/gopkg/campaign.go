// Package campaign holds four fuzz targets for tests/cli/campaign and
// bench/campaign/campaign_bench.py: two hide planted bugs, two never fail.
package campaign

// Parse is a toy parser whose branches give the pass targets coverage to
// find.
func Parse(b []byte) int {
	n := 0
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n += int(c - '0')
		case c == '{' && i > 0:
			n *= 2
		case c == '}':
			n--
		}
	}
	return n
}
