package plain

import (
	"fmt"
	"testing"
)

func TestDouble(t *testing.T) {
	t.Log("checking Double")
	if Double(2) != 4 {
		t.Fatal("Double(2) != 4")
	}
}

func TestSub(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		t.Run(fmt.Sprint("n", n), func(t *testing.T) {
			if Double(n) != n+n {
				t.Error("wrong")
			}
		})
	}
}

func TestSkipped(t *testing.T) { t.Skip("not today") }

func ExampleDouble() {
	fmt.Println(Double(21))
	// Output: 42
}

func BenchmarkDouble(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Double(i)
	}
}

func FuzzDouble(f *testing.F) {
	f.Add(1)
	f.Add(-7)
	f.Fuzz(func(t *testing.T, x int) {
		if Double(x) != x+x {
			t.Fatal("not x+x")
		}
	})
}
