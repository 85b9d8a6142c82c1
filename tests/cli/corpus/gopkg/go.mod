module example.com/corpuspkg

go 1.18
