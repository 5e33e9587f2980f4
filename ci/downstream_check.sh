#!/usr/bin/env bash
# Proves the installed CMake package works for a downstream project: installs
# warp-compile-probe from an already-built tree to a temporary prefix, configures
# examples/downstream against it with find_package(WarpCompileProbe), and runs its
# `ctest -L compile-budget`, checking the JUnit report names every budget test.
#
# Usage: ci/downstream_check.sh [BUILD_DIR]      (default: build)
# Environment: WCP_PYTHON  interpreter with warp-lang (default: .venv/bin/python, else python3)
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
build_dir=$(cd "${1:-$repo/build}" && pwd)
python=${WCP_PYTHON:-}
if [[ -z "$python" ]]; then
  if [[ -x "$repo/.venv/bin/python" ]]; then python="$repo/.venv/bin/python"; else python=python3; fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== installing to $work/prefix"
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null

echo "== configuring examples/downstream against the installed package"
cmake -S "$repo/examples/downstream" -B "$work/downstream" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DWARP_PYTHON="$python" >/dev/null

echo "== ctest -L compile-budget"
source "$repo/ci/downstream_ctest.sh"
run_downstream_ctest "$work/downstream" "$work/junit.xml"
echo "downstream check passed"
