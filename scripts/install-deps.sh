#!/usr/bin/env bash
# install-deps.sh: installs what cgofuzz needs to build and test, from
# Debian packages. Idempotent: it asks apt only for what is missing, and
# runs `apt-get update` only when something is.
set -euo pipefail

pkgs=(cmake ninja-build gcc g++ libgtest-dev googletest python3 valgrind
      clang clang-14 libclang-rt-14-dev clang-format zlib1g-dev dpkg-dev
      libcjson-dev strace)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
# Source packages (apt-get source) for the tests and benchmarks that build
# real C libraries and their upstream fuzz harnesses (cJSON, zlib, libpng).
src_entry=/etc/apt/sources.list.d/cgofuzz-src.sources
if ! grep -qsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list /etc/apt/sources.list.d/*; then
  code=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s %s-updates\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$code" "$code" | $SUDO tee "$src_entry" >/dev/null
  echo "install-deps: added $src_entry"
  $SUDO apt-get update -qq
fi
if ! command -v go >/dev/null 2>&1; then
  # The reference Go toolchain; the machine image normally has a newer one.
  echo "install-deps: no go on PATH, installing Debian's golang"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq golang >/dev/null
fi
