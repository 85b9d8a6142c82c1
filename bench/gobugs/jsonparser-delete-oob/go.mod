module gobugs/jsonparser-delete-oob

go 1.18

require github.com/buger/jsonparser v1.1.1
