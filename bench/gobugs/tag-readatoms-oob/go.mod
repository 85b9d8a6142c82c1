module gobugs/tag-readatoms-oob

go 1.18

require github.com/dhowden/tag v0.0.0-20200412032933-5d76b8eaae27
