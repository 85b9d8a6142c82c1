module racereplay

go 1.18
