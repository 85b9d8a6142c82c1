module goleaks

go 1.18
