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
ctest --test-dir "$work/downstream" -L compile-budget --no-tests=error --output-on-failure \
  --output-junit "$work/junit.xml"

# The listing must have registered both entries; simulate must have run and passed.
for test in compile-budget/compile_budgets/simulate compile-budget/compile_budgets/simulate-cuda; do
  grep -q "name=\"$test\"" "$work/junit.xml" || { echo "missing test $test in JUnit" >&2; exit 1; }
done
if grep -A3 'name="compile-budget/compile_budgets/simulate"' "$work/junit.xml" | grep -q '<failure'; then
  echo "compile-budget/compile_budgets/simulate failed" >&2
  exit 1
fi
echo "downstream check passed"
