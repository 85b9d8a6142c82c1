module gobugs.test/std120-goparser-linedirective-hang

go 1.18
