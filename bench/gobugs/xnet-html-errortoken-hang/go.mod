module gobugs/xnet-html-errortoken-hang

go 1.18

require golang.org/x/net v0.32.0
