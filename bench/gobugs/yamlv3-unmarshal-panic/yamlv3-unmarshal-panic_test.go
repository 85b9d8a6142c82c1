package bug

import (
	"testing"

	"gopkg.in/yaml.v3"
)

func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte("a: 1\nb: [x, y, z]\n"))
	f.Add([]byte("name: test\nitems:\n  - id: 1\n    tags: {k: v}\n  - id: 2\n"))
	f.Add([]byte("key: !!str 123\nanchor: &a [1, 2]\nref: *a\n"))
	f.Add([]byte("- \"quoted\"\n- 'single'\n- |\n  literal\n  block\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var v interface{}
		if err := yaml.Unmarshal(data, &v); err != nil {
			return
		}
		out, err := yaml.Marshal(v)
		if err != nil {
			return
		}
		var v2 interface{}
		_ = yaml.Unmarshal(out, &v2)
	})
}
