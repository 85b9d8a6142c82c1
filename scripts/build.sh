#!/usr/bin/env bash
# build.sh [DIR [CMAKE_ARGS...]]: configures and builds cgofuzz with Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
cmake --build "$dir"
