module example.com/cgofuzzfaults

go 1.22
