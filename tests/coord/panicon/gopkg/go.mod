module panicon

go 1.18
