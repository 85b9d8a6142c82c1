module example.com/cgofuzze2e

go 1.22
