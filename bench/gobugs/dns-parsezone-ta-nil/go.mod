module gobugs/dns-parsezone-ta-nil

go 1.18

require github.com/miekg/dns v1.0.9

require (
	golang.org/x/crypto v0.0.0-20190308221718-c2843e01d9a2 // indirect
	golang.org/x/net v0.0.0-20190620200207-3b0461eec859 // indirect
	golang.org/x/sync v0.0.0-20190423024810-112230192c58 // indirect
	golang.org/x/sys v0.0.0-20190215142949-d0b11bdaac8a // indirect
)
