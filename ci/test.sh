#!/usr/bin/env bash
# The whole test suite on a fresh machine:
#   1. set up (packages, .venv with the pinned Warp, build/);
#   2. CTest: unit, integration (real CLI against real Warp) and this project's compile budgets;
#   3. the downstream find_package() example against an installed copy;
#   4. the unit tests and the integration tests that drive the tool's own C++ paths again under
#      AddressSanitizer + UBSan (clang, build-asan/, which also holds the fuzzers);
#   5. each libFuzzer target for a bounded time (WCP_FUZZ_SECONDS, default 60).
# Set WCP_QUICK=1 to stop after step 3.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/ci/setup.sh"
cd "$root"
export WCP_PYTHON="$root/.venv/bin/python"
# -j: unit tests run side by side; integration, instrumentation and compile-budget tests are
# RUN_SERIAL (they time things), so CTest runs each of them alone.
ctest --test-dir build -j"$(nproc)" --output-on-failure --timeout 1800 "$@"
bash ci/downstream_check.sh build
if [ "${WCP_QUICK:-0}" != "1" ]; then
  bash ci/sanitizers.sh
  bash ci/fuzz.sh
fi
