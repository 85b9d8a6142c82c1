module cmpgates

go 1.18
