#!/bin/sh
# Cross-builds cgofuzz (the tool, libcgofuzz.a, libcgofuzz_main.a) for other
# systems with zig's clang (PyPI `ziglang`, installed when missing), with
# the project's warnings as errors: what CI checks for macOS (issue 25).
#
#   scripts/cross_build.sh [--unit] [TARGET...]
#                             default: aarch64-macos x86_64-macos
#
# --unit also builds the unit tests (bin/cgofuzz_unit, GoogleTest from
# /usr/src/googletest), for a target whose binaries run here under
# qemu-user (aarch64-linux-musl: tests/cross runs them).
#
# Each target builds in build-cross/<TARGET>/ ($CGOFUZZ_CROSS_OUT instead
# of build-cross; cmake, tests off but for --unit); the script fails on the first warning
# or error and prints what it built.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${CGOFUZZ_CROSS_OUT:-$root/build-cross}
unit=0
if [ "${1:-}" = "--unit" ]; then
  unit=1
  shift
fi
[ $# -gt 0 ] || set -- aarch64-macos x86_64-macos
PY=${PYTHON:-python3}
if ! "$PY" -m ziglang version >/dev/null 2>&1; then
  echo "cross_build: installing zig's compiler (PyPI ziglang)" >&2
  "$PY" -m pip install --quiet 'ziglang==0.13.0' >&2
fi
mkdir -p "$out/bin"
# One wrapper per tool: cmake wants executables, zig is `python3 -m ziglang`.
for t in "$@"; do
  for tool in cc c++ ar ranlib; do
    w=$out/bin/zig-$tool-$t
    case $tool in
    cc | c++) body="exec \"$PY\" -m ziglang $tool -target $t \"\$@\"" ;;
    *) body="exec \"$PY\" -m ziglang $tool \"\$@\"" ;;
    esac
    printf '#!/bin/sh\n%s\n' "$body" >"$w"
    chmod +x "$w"
  done
  case $t in
  *-macos*) sys=Darwin ;;
  *-linux*) sys=Linux ;;
  *) echo "cross_build: unknown target $t" >&2; exit 2 ;;
  esac
  b=$out/$t
  tests=OFF targets="cgofuzz_cli cgofuzz cgofuzz_main cgofuzz_interceptors"
  if [ "$unit" = 1 ]; then
    tests=UNIT targets="$targets cgofuzz_unit"
  fi
  cmake -S "$root" -B "$b" -G Ninja -DCGOFUZZ_TESTS=$tests \
    -DCMAKE_CXX_COMPILER="$out/bin/zig-c++-$t" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_SYSTEM_NAME=$sys \
    -DCMAKE_C_COMPILER="$out/bin/zig-cc-$t" \
    -DCMAKE_AR="$out/bin/zig-ar-$t" -DCMAKE_RANLIB="$out/bin/zig-ranlib-$t" \
    >"$b.cmake.log" 2>&1 || { cat "$b.cmake.log" >&2; exit 1; }
  # zig's clang caches in ~/.cache/zig; -Werror (the project's flags) makes
  # any warning fail the build.
  # shellcheck disable=SC2086
  cmake --build "$b" --target $targets \
    >"$b.build.log" 2>&1 || { cat "$b.build.log" >&2; exit 1; }
  echo "cross_build: $t: $(file -b "$b/bin/cgofuzz" | cut -c1-60)"
done
