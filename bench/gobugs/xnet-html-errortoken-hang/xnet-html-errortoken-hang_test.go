package bug

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"
)

// FuzzParse parses the input both as a document and as a fragment,
// and renders the resulting trees.
func FuzzParse(f *testing.F) {
	f.Add([]byte("<!DOCTYPE html><html><head><title>Hi</title></head><body><p class=\"x\">Hello <b>world</b></p></body></html>"))
	f.Add([]byte("<table><tr><td>1</td><td>2</td></tr></table>"))
	f.Add([]byte("<svg viewBox=\"0 0 10 10\"><circle r=\"4\"/></svg><math><mi>x</mi></math>"))
	f.Add([]byte("<select><option>a<option selected>b</select><input type=text>"))
	f.Add([]byte("<template><div>t</div></template><script>var a = 1 < 2;</script>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := html.Parse(bytes.NewReader(data))
		if err == nil {
			var buf bytes.Buffer
			_ = html.Render(&buf, doc)
		}
		nodes, err := html.ParseFragment(bytes.NewReader(data), nil)
		if err == nil {
			var buf bytes.Buffer
			for _, n := range nodes {
				_ = html.Render(&buf, n)
			}
		}
	})
}
