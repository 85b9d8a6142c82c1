module gobugs/std118-big-float-gobdecode

go 1.18
