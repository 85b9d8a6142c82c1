module example.com/goparse

go 1.22
