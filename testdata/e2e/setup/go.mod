module example.com/setup

go 1.22
