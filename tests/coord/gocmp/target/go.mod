module gocmp

go 1.18
