module gobugs/xtext-language-acceptlang-panic

go 1.18

require golang.org/x/text v0.3.6
