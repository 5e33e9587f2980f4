#!/usr/bin/env bash
# The whole test suite on a fresh machine: set up, unit + integration + compile-budget tests
# through CTest, then the downstream find_package() example against an installed copy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/ci/setup.sh"
cd "$root"
ctest --test-dir build --output-on-failure --timeout 1800 "$@"
if [ -x ci/downstream_check.sh ] || [ -f ci/downstream_check.sh ]; then
  bash ci/downstream_check.sh
fi
