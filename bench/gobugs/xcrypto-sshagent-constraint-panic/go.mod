module gobugs/xcrypto-sshagent-constraint-panic

go 1.24.0

require golang.org/x/crypto v0.44.0

require golang.org/x/sys v0.38.0 // indirect
