module neturl

go 1.18
