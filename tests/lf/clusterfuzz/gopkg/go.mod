module example.com/cfplanted

go 1.18
