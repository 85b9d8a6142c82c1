package bug

import (
	"testing"

	"github.com/buger/jsonparser"
)

// Native version of the project's own go-fuzz target FuzzDelete (fuzz.go):
//
//	func FuzzDelete(data []byte) int { Delete(data, "test"); return 1 }
func FuzzDelete(f *testing.F) {
	f.Add([]byte(`{"test":"input"}`))
	f.Add([]byte(`{"a":1,"test":{"b":[1,2,3]},"c":"d"}`))
	f.Add([]byte(`{"other":true,"test":null}`))
	f.Add([]byte(`[{"test":1},{"test":2}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		jsonparser.Delete(data, "test")
	})
}
