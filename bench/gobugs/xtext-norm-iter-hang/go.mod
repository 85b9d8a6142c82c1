module gobugs/xtext-norm-iter-hang

go 1.25.0

require golang.org/x/text v0.38.0
