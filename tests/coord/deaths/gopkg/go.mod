module deaths

go 1.18
