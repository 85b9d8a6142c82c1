package fuzzy

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// A flag of the tests' own, which must reach the binary through -args.
var greeting = flag.String("greeting", "", "printed by TestMain")

func TestMain(m *testing.M) {
	flag.Parse()
	if *greeting != "" {
		fmt.Println("greeting:", *greeting)
	}
	os.Exit(m.Run())
}

func TestCheck(t *testing.T) {
	if Check("abc") != 3 {
		t.Fatal("Check(abc) != 3")
	}
}

func FuzzCheck(f *testing.F) {
	f.Add("abc")
	f.Log("the body of FuzzCheck ran")
	f.Fuzz(func(t *testing.T, s string) { Check(s) })
}

func FuzzClean(f *testing.F) {
	f.Add("abc")
	f.Fuzz(func(t *testing.T, s string) {
		n := 0
		for _, c := range s {
			switch {
			case c >= 'a' && c <= 'f':
				n++
			case c >= '0' && c <= '9':
				n += 2
			case c == '-':
				n--
			case c > 0x7f:
				n += 3
			}
		}
		if n > 1<<20 {
			t.Fatal("too long")
		}
	})
}
