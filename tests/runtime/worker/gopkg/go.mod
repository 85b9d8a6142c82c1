module example.com/cgofuzzworker

go 1.21
