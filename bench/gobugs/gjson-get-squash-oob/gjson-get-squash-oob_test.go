package bug

import (
	"testing"

	"github.com/tidwall/gjson"
)

func FuzzGet(f *testing.F) {
	f.Add(`{"name":{"first":"Tom","last":"Anderson"},"age":37}`, "name.last")
	f.Add(`{"friends":[{"first":"Dale","age":44},{"first":"Roger","age":68}]}`, "friends.#.first")
	f.Add(`{"friends":[{"first":"Dale","age":44},{"first":"Roger","age":68}]}`, `friends.#(age>45).first`)
	f.Add(`{"children":["Sara","Alex","Jack"]}`, "children|@reverse")
	f.Add(`[1,2,{"a":[true,null]}]`, "2.a.0")
	f.Fuzz(func(t *testing.T, json string, path string) {
		r := gjson.Get(json, path)
		_ = r.String()
		if r.IsArray() || r.IsObject() {
			r.ForEach(func(key, value gjson.Result) bool {
				_ = value.Raw
				return true
			})
		}
	})
}
