// Command hello is for go run -exec=cgofuzz: a program that is not a test
// binary is run unchanged.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("hello", os.Args[1:])
	os.Exit(3)
}
