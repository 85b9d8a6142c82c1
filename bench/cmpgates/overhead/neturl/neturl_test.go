// Package neturl holds a fuzz target for net/url, whose own tests have none:
// the fourth target without planted comparison gates in cmpgates_bench.py
// --overhead (issue 23). It exercises the parser and the URL's accessors and
// re-parses what String prints; it checks nothing, since it exists to measure
// speed and coverage, not to find a bug (round trips are not exact for every
// input url.Parse accepts).
package neturl

import (
	"net/url"
	"testing"
)

func FuzzURLParse(f *testing.F) {
	for _, s := range []string{
		"http://www.google.com/?q=go+language#foo%26bar",
		"https://user:pass@example.com:8080/a/b;c?x=1&y=%20#frag",
		"mailto:gopher@golang.org",
		"file:///etc/passwd",
		"//host/path",
		"/relative/path?query",
		"http://[fe80::1%25en0]:8080/",
		"scheme:opaque?q",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := url.Parse(s)
		if err != nil {
			return
		}
		_ = u.Query()
		_ = u.Port()
		_ = u.Hostname()
		_ = u.EscapedPath()
		_, _ = url.ParseQuery(u.RawQuery)
		_, _ = url.PathUnescape(u.Path)
		if v, err := url.Parse(u.String()); err == nil {
			_ = v.String()
		}
	})
}
