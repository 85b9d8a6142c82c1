module gobugs/gomarkdown-paragraph-hang

go 1.18

require github.com/gomarkdown/markdown v0.0.0-20240723152757-afa4a469d4f9
