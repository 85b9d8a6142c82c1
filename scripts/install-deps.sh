#!/usr/bin/env bash
# install-deps.sh [--minimal]: installs what cgofuzz needs, from Debian
# packages. Idempotent: it asks apt only for what is missing, and runs
# `apt-get update` only when something is.
#
# --minimal: only what building cgofuzz and its main job (scripts/demo.sh,
# `cgofuzz fuzz` on a Go test binary) need: cmake, ninja, a C compiler and
# the C library's headers, and Go when there is none on PATH. Without it,
# everything the tests and benchmarks need as well (scripts/test.sh):
# GoogleTest, clang and llvm-14, Chromium, pytest, lizard, the report
# tools' Python modules, source packages, a ClusterFuzz venv and four more
# Go releases.
set -euo pipefail

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
updated=0
# apt_install PKG...: installs those of the Debian packages that are missing.
apt_install() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  echo "install-deps: installing ${missing[*]}"
  if [ "$updated" -eq 0 ]; then
    $SUDO apt-get update -qq
    updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# The main job's: building cgofuzz (C only) and fuzzing a Go package.
apt_install cmake ninja-build gcc libc6-dev
# (The official tarball's go, when it is not on PATH, is used as it is.)
if ! command -v go >/dev/null 2>&1 && [ -x /usr/local/go/bin/go ]; then
  export PATH=$PATH:/usr/local/go/bin
fi
if ! command -v go >/dev/null 2>&1; then
  # The reference Go toolchain; the machine image normally has a newer one.
  echo "install-deps: no go on PATH, installing Debian's golang"
  apt_install golang
fi
[ "${1:-}" = "--minimal" ] && exit 0

# The tests' and benchmarks'.
apt_install g++ libgtest-dev googletest python3 valgrind \
  clang clang-14 libclang-rt-14-dev clang-format zlib1g-dev dpkg-dev \
  libcjson-dev strace python3-pytest python3-venv \
  llvm-14 chromium python3-matplotlib python3-jinja2 python3-pygments \
  python3-junitparser python3-lxml libxml2-utils
# bench/magma/magma_bench.py: Magma's targets regenerate their build systems
# (libpng, libxml2), sqlite3's needs tclsh, libxml2 zlib's and liblzma's
# headers.
apt_install git patch make autoconf automake libtool pkg-config tcl \
  liblzma-dev
# tests/cross: aarch64 binaries (cgofuzz cross-built, Go's GOARCH=arm64 test
# binaries) run through qemu-user, which binfmt_misc hands them to; the
# filesystem is mounted when it is not (a container may refuse: the case
# then skips, naming it).
apt_install qemu-user-static binfmt-support
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
  $SUDO mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
fi
if [ -e /proc/sys/fs/binfmt_misc/register ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  $SUDO update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 ||
    echo "install-deps: WARNING: could not register qemu-aarch64 with binfmt_misc (tests/cross's arm64 case will skip)"
fi
# Source packages (apt-get source) for the tests and benchmarks that build
# real C libraries and their upstream fuzz harnesses (cJSON, zlib, libpng).
src_entry=/etc/apt/sources.list.d/cgofuzz-src.sources
if ! grep -qsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/*; then
  code=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$code" "$code" | $SUDO tee "$src_entry" >/dev/null
  echo "install-deps: added $src_entry"
  $SUDO apt-get update -qq
fi
# pytest for the python3 that CMake finds (the first on PATH). Debian's
# python3-pytest serves /usr/bin/python3; another python3 (pyenv, venv) gets
# it from PyPI.
if ! python3 -c "import pytest" >/dev/null 2>&1; then
  echo "install-deps: pytest for $(command -v python3) from PyPI"
  python3 -m pip install -q pytest || { echo "install-deps: pip install pytest failed"; exit 1; }
fi
# lizard (PyPI) for tools/check_funcs.py, the check that no C function is
# over 150 lines (tests/tree/funcs, which skips, visibly, without it).
if ! python3 -c "import lizard" >/dev/null 2>&1; then
  echo "install-deps: lizard for $(command -v python3) from PyPI"
  python3 -m pip install -q 'lizard==1.24.3' ||
    echo "install-deps: WARNING: could not install lizard (tests/tree/funcs will skip)"
fi
# zig's clang (PyPI ziglang), the cross compiler of scripts/cross_build.sh
# and tests/cross (cgofuzz built for aarch64-macos and aarch64-linux-musl).
if ! python3 -m ziglang version >/dev/null 2>&1; then
  echo "install-deps: zig's compiler for $(command -v python3) from PyPI (ziglang)"
  python3 -m pip install -q 'ziglang==0.13.0' ||
    echo "install-deps: WARNING: could not install ziglang (tests/cross will skip)"
fi
# Source packages the tests build from (cJSON's upstream libFuzzer harness):
# fetched here, at set-up, so no test reaches the network. Tests that need
# them skip, visibly, when they are not here.
srcdir=${CGOFUZZ_SRC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cgofuzz/src}
mkdir -p "$srcdir"
for p in cjson; do
  if ! ls -d "$srcdir/$p"-*/ >/dev/null 2>&1; then
    echo "install-deps: fetching the $p source package into $srcdir"
    ( cd "$srcdir" && apt-get source --download-only -q "$p" >/dev/null &&
      dpkg-source -q -x "$p"_*.dsc >/dev/null ) ||
      echo "install-deps: WARNING: could not fetch the $p source (tests that need it will skip)"
  fi
done
# ClusterFuzz's own libFuzzer engine (PyPI clusterfuzz==2.6.0, with its
# google-cloud-* dependencies) for tests/lf/clusterfuzz and bench/cf/cf_bench.py,
# in a venv of its own so that none of it reaches the python3 the suites run
# under. Made once (about a minute); the tests that need it skip, visibly,
# without it.
cf_venv=${CGOFUZZ_VENV:-$HOME/.cache/cgofuzz/venv}
cf_ready() {
  JOB_NAME=install-deps "$cf_venv/bin/python" -c 'import importlib.metadata as m
import clusterfuzz.fuzz, pytest
assert m.version("clusterfuzz") == "2.6.0"' >/dev/null 2>&1
}
if ! cf_ready; then
  echo "install-deps: creating the venv $cf_venv with clusterfuzz==2.6.0 and pytest (PyPI, about a minute)"
  if { [ -x "$cf_venv/bin/python" ] || python3 -m venv "$cf_venv"; } &&
     "$cf_venv/bin/python" -m pip install -q --disable-pip-version-check \
       "clusterfuzz==2.6.0" pytest && cf_ready; then
    echo "install-deps: clusterfuzz==2.6.0 ready in $cf_venv"
  else
    echo "install-deps: WARNING: could not set up clusterfuzz==2.6.0 in $cf_venv" \
         "(tests/lf/clusterfuzz and bench/cf/cf_bench.py will skip); remove it and run again"
  fi
fi

# go-118-fuzz-build and go-fuzz-headers (the code OSS-Fuzz's native Go
# fuzzers consume their bytes with), at the versions pinned in
# tests/cli/corpus/go118mod/go.mod, into the default module cache: the
# cli/corpus suite checks `cgofuzz corpus convert -from go118` against
# them offline, and skips (visibly) without them. Downloaded from a copy of
# that module, so the source tree gets no go.sum.
if command -v go >/dev/null 2>&1; then
  g118=$(mktemp -d)
  cp "$(dirname "$0")/../tests/cli/corpus/go118mod/go.mod" "$g118/" &&
    (cd "$g118" && GOFLAGS=-mod=mod go mod download \
      github.com/AdamKorcz/go-118-fuzz-build github.com/AdaLogics/go-fuzz-headers) ||
    echo "install-deps: WARNING: could not download go-118-fuzz-build and" \
         "go-fuzz-headers (the cli/corpus go118 cases will skip)"
  rm -rf "$g118"
fi

# Other Go releases (issue 14): the differential tests core/diff/go1.18 and
# core/diff/go1.27 compare the C core with the oldest and the newest release
# cgofuzz follows. `GOTOOLCHAIN=<release> go version` downloads a toolchain
# (about 100 MB each, once) through the Go module proxy into the module
# cache, where the tests find it offline; they skip, visibly, without it.
# scripts/diff_matrix.sh fetches the other releases on demand. The
# go/releases suite (cgofuzz fuzz on test binaries of each release) also
# uses go1.19.13, go1.20.14 and go1.23.12 (go1.19 is the release whose
# counters share clang's section name); the coord/gocmp suite (run-time comparison
# feedback) patches test binaries of go1.18.10 and go1.22.12.
if command -v go >/dev/null 2>&1; then
  for gotc in go1.18.10 go1.19.13 go1.20.14 go1.22.12 go1.23.12 go1.27.4; do
    (cd / && GOTOOLCHAIN=$gotc go version >/dev/null) ||
      echo "install-deps: WARNING: could not fetch $gotc (core/diff and go/releases for it will skip)"
  done
fi
