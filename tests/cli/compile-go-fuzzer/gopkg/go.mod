module example.com/gofuzzertest

go 1.18
