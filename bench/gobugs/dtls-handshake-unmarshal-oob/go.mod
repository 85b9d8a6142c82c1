module gobugs/dtls-handshake-unmarshal-oob

go 1.18

require github.com/pion/dtls/v2 v2.2.3

require golang.org/x/crypto v0.5.0 // indirect
