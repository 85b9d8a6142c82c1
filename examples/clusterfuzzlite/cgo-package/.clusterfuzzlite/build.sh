#!/bin/bash -eu
# ClusterFuzzLite/OSS-Fuzz build script: in place of
#   compile_native_go_fuzzer example.com/cgopackage FuzzParseRecord parse_record_fuzzer
# cgofuzz builds the package's unmodified test binary (go test -c -fuzz,
# with -asan when $SANITIZER is address) into $OUT/parse_record_fuzzer, a
# fuzz target with libFuzzer's command line. The first argument is an
# import path or a directory, as for compile_native_go_fuzzer.
cd "$SRC/cgo-package"
cgofuzz compile-go-fuzzer example.com/cgopackage FuzzParseRecord parse_record_fuzzer
