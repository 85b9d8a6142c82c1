#!/bin/sh
# build.sh: builds the libFuzzer harnesses in tests/fuzz/ against the
# base and core layers (csrc/base, csrc/core: the decoders), with ASan and
# UBSan. The runtime layer is left out: it defines the SanitizerCoverage
# hooks that libFuzzer itself provides.
#
#   tests/fuzz/build.sh            # binaries in build-fuzz/
#   OUT=/some/dir tests/fuzz/build.sh
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-$root/build-fuzz}
cc=${CC:-clang}
mkdir -p "$out"
srcs=
for f in "$root"/csrc/base/*.c "$root"/csrc/core/*.c; do
  srcs="$srcs $f"
done
for src in "$root"/tests/fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  echo "building $out/$name"
  # shellcheck disable=SC2046
  "$cc" -std=c11 -g -O1 -D_GNU_SOURCE -Wall -Wextra -Werror \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer -I"$root/include" -I"$root/csrc/base" -I"$root/csrc/core" \
    "$src" $srcs -lm -o "$out/$name"
done
