module example.com/campaign

go 1.18
