module example.com/godict

go 1.18
