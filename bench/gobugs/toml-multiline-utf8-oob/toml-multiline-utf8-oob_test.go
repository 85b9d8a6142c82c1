package bug

import (
	"bytes"
	"testing"

	"github.com/BurntSushi/toml"
)

// The project's own FuzzDecode (fuzz_test.go@v1.0.0), with a few more seeds.
func FuzzDecode(f *testing.F) {
	buf := make([]byte, 0, 2048)

	f.Add(`
# This is a TOML document

title = "TOML Example"

[owner]
name = "Tom Preston-Werner"
dob = 1979-05-27T07:32:00-08:00

[database]
enabled = true
ports = [ 8000, 8001, 8002 ]
data = [ ["delta", "phi"], [3.14] ]
temp_targets = { cpu = 79.5, case = 72.0 }

[servers]

[servers.alpha]
ip = "10.0.0.1"
role = "frontend"

[servers.beta]
ip = "10.0.0.2"
role = "backend"
`)
	f.Add("str = \"\"\"\nRoses are red\nViolets are blue\"\"\"\nlit = '''\nraw \\n text'''\n")
	f.Add("[[products]]\nname = \"Hammer\"\nsku = 738594937\n\n[[products]]\nname = \"Nail\"\ncolor = \"gray\"\n")
	f.Fuzz(func(t *testing.T, file string) {
		var m map[string]interface{}
		_, err := toml.Decode(file, &m)
		if err != nil {
			t.Skip()
		}

		toml.NewEncoder(bytes.NewBuffer(buf)).Encode(m)
	})
}
