#!/bin/bash -eu
# ClusterFuzzLite/OSS-Fuzz build script. The library and the harness are
# built with `cgofuzz cc` instead of $CC: the same flags (base-builder's
# $CFLAGS: ASan, and -fsanitize=fuzzer-no-link, which cgofuzz cc replaces
# by its own instrumentation) and $LIB_FUZZING_ENGINE (-fsanitize=fuzzer,
# which cgofuzz cc drops: its runtime provides main and libFuzzer's
# command line).
cd "$SRC/c-library"
cgofuzz cc $CFLAGS -c tlv.c -o "$WORK/tlv.o"
ar rcs "$WORK/libtlv.a" "$WORK/tlv.o"
cgofuzz cc $CFLAGS -I. fuzz/tlv_fuzzer.c "$WORK/libtlv.a" $LIB_FUZZING_ENGINE \
  -o "$OUT/tlv_fuzzer"
