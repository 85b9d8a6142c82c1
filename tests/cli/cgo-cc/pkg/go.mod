module example.com/cgopkg

go 1.18
