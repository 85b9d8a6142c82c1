module github.com/cgofuzz/cgofuzz

go 1.22
