module focus

go 1.18
