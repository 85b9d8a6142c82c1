module gobugs/toml-multiline-utf8-oob

go 1.18

require github.com/BurntSushi/toml v1.0.0
