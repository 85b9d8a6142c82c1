#!/bin/bash
# cflite_build.sh EXAMPLE_DIR OUTDIR: runs a ClusterFuzzLite project's
# .clusterfuzzlite/build.sh outside Docker, in the environment OSS-Fuzz's
# base-builder image and its `compile` script give it for a libFuzzer ASan
# build, with cgofuzz on PATH. The fuzz targets end up in OUTDIR ($OUT).
#
# What base-builder sets (infra/base-images/base-clang/Dockerfile,
# base-builder/Dockerfile, base-builder/compile, compile_libfuzzer):
#   CC=clang CXX=clang++ CCC=clang++
#   CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only -Wno-error=...
#           -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#           $SANITIZER_FLAGS_address $COVERAGE_FLAGS"
#   SANITIZER_FLAGS_address="-fsanitize=address -fsanitize-address-use-after-scope"
#   COVERAGE_FLAGS="-fsanitize=fuzzer-no-link"
#   CXXFLAGS="$CFLAGS $CXXFLAGS_EXTRA", CXXFLAGS_EXTRA="-stdlib=libc++"
#   LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
#   SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
#   FUZZING_LANGUAGE from project.yaml (for go, CXX gets -lresolv)
#   SRC=/src OUT=/out WORK=/work
# As in the image, the project is copied to $SRC/<name of EXAMPLE_DIR>,
# build.sh to $SRC/build.sh, and build.sh runs (bash -eux) from the
# project's directory (the Dockerfile's WORKDIR).
#
# cgofuzz comes from $CGOFUZZ_BIN (a directory), else the build tree
# <repo>/build/bin. CXXFLAGS_EXTRA can be overridden where libc++ is not
# installed (the examples do not use C++).
set -eu

if [ $# -ne 2 ]; then
  echo "usage: $0 EXAMPLE_DIR OUTDIR" >&2
  exit 2
fi
example=$(cd "$1" && pwd)
name=$(basename "$example")
mkdir -p "$2"
out=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${CGOFUZZ_BIN:-$root/build/bin}

if [ ! -f "$example/.clusterfuzzlite/build.sh" ]; then
  echo "$0: $example has no .clusterfuzzlite/build.sh" >&2
  exit 2
fi
if [ ! -x "$bin/cgofuzz" ]; then
  echo "$0: no cgofuzz in $bin (build it, or set CGOFUZZ_BIN)" >&2
  exit 2
fi
language=$(sed -n 's/^language:[[:space:]]*\([^[:space:]#]*\).*/\1/p' \
  "$example/.clusterfuzzlite/project.yaml" 2>/dev/null | head -n1)

scratch=$(mktemp -d "${TMPDIR:-/tmp}/cflite-build-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export SRC=$scratch/src WORK=$scratch/work OUT=$out
mkdir -p "$SRC" "$WORK"
cp -a "$example" "$SRC/$name"
cp "$example/.clusterfuzzlite/build.sh" "$SRC/build.sh"

# base-clang
export CC=clang CXX=clang++ CCC=clang++
export CFLAGS="-O1 -fno-omit-frame-pointer -gline-tables-only \
-Wno-error=incompatible-function-pointer-types -Wno-error=int-conversion \
-Wno-error=deprecated-declarations -Wno-error=implicit-function-declaration \
-Wno-error=implicit-int -Wno-error=unknown-warning-option \
-Wno-error=vla-cxx-extension -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION"
export CXXFLAGS_EXTRA=${CXXFLAGS_EXTRA--stdlib=libc++}
# base-builder
export SANITIZER_FLAGS_address="-fsanitize=address -fsanitize-address-use-after-scope"
export COVERAGE_FLAGS="-fsanitize=fuzzer-no-link"
export UBSAN_OPTIONS="silence_unsigned_overflow=1"
export SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64
export FUZZING_LANGUAGE=${language:-c++}
# compile and compile_libfuzzer
export SANITIZER_FLAGS=$SANITIZER_FLAGS_address
export LIB_FUZZING_ENGINE="-fsanitize=fuzzer"
export CFLAGS="$CFLAGS $SANITIZER_FLAGS $COVERAGE_FLAGS"
export CXXFLAGS="$CFLAGS $CXXFLAGS_EXTRA"
if [ "$FUZZING_LANGUAGE" = go ]; then
  export CXX="$CXX -lresolv"
fi
export PATH="$bin:$PATH"

cd "$SRC/$name"
bash -eux "$SRC/build.sh"
echo "$0: fuzz targets in $OUT:" >&2
for f in "$OUT"/*; do
  if [ -f "$f" ] && [ -x "$f" ] && grep -q LLVMFuzzerTestOneInput "$f"; then
    echo "  $(basename "$f")" >&2
  fi
done
