module example.com/cgopackage

go 1.18
