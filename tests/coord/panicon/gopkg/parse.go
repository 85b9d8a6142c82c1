// Package panicon parses a record whose unknown versions are logged, not
// returned: no input fails without -panic-on.
package panicon

import (
	"io"

	"panicon/log"
)

// reporter is how Parse reaches the logger: through an interface, so the
// call is not a static call of (*Logger).Error.
type reporter interface {
	Error(format string, args ...any)
	Info(format string, args ...any)
}

var std = log.New(io.Discard)

var rep reporter = std

func Parse(b []byte) int {
	if len(b) < 3 {
		return 0
	}
	rep.Info("record of %d bytes", len(b))
	if b[0] == 'V' && b[1] == '9' {
		rep.Error("unknown version %q", b[1])
		return -1
	}
	if len(b) > 3 && b[3] == '#' {
		std.Warn() // inlined here
	}
	return int(b[2])
}
