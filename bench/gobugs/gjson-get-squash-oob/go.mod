module gobugs/gjson-get-squash-oob

go 1.18

require github.com/tidwall/gjson v1.6.3

require (
	github.com/tidwall/match v1.0.1 // indirect
	github.com/tidwall/pretty v1.0.2 // indirect
)
