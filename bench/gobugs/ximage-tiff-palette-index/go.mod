module gobugs/ximage-tiff-palette-index

go 1.18

require golang.org/x/image v0.17.0
