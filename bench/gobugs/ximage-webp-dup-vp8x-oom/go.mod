module gobugs/ximage-webp-dup-vp8x-oom

go 1.18

require golang.org/x/image v0.14.0
