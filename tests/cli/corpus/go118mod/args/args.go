// Package args prints fuzz arguments in one canonical line, so that the
// values go-118-fuzz-build passes and those of a converted corpus file can
// be compared exactly (floats by their bits, bytes quoted).
package args

import (
	"fmt"
	"math"
	"strings"
)

func Line(vals ...any) string {
	var parts []string
	for _, v := range vals {
		var s string
		switch x := v.(type) {
		case []byte:
			s = fmt.Sprintf("%q", x)
		case string:
			s = fmt.Sprintf("%q", x)
		case float32:
			s = fmt.Sprintf("%#x", math.Float32bits(x))
		case float64:
			s = fmt.Sprintf("%#x", math.Float64bits(x))
		default:
			s = fmt.Sprintf("%v", x)
		}
		parts = append(parts, fmt.Sprintf("%T:%s", v, s))
	}
	return strings.Join(parts, " ")
}
