#!/usr/bin/env bash
# The long suites that .ci/run (ci/test.sh) runs only a quick subset of (docs/testing.md):
#   1. set up (ci/setup.sh, .venv-field);
#   2. CTest labels `field`, `field-quick` and `full`: the whole field corpus (15 programs), the
#      older Warp's whole pytest suite (instrument/warp-old), the whole test_warp_versions
#      catalogue (integration/test_warp_versions-full);
#   3. each libFuzzer target for WCP_FULL_FUZZ_SECONDS (default 300, five times .ci/run's) over the same
#      corpora, two at a time;
#   4. with WCP_FULL_BENCH=1, the gate bench (tests/bench/gate_cost.py, 15 to 25 minutes on a
#      quiet machine; ci/bench.sh runs every bench).
# 19 minutes on the 2-core development machine without the bench (docs/testing.md). Extra arguments go to
# ctest (e.g. -R field/).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
step_prefix=full
source "$root/ci/steps.sh"
step setup bash "$root/ci/setup.sh"
step field-setup bash "$root/ci/field_setup.sh"
cd "$root"
export WCP_PYTHON="$root/.venv/bin/python"
step ctest ctest --test-dir build -j"$(nproc)" -L '^(field|field-quick|full)$' --no-tests=error --output-on-failure \
  --timeout 1800 "$@"
step fuzz env WCP_FUZZ_SECONDS="${WCP_FULL_FUZZ_SECONDS:-300}" bash ci/fuzz.sh
if [ "${WCP_FULL_BENCH:-0}" = "1" ]; then
  step gate-bench .venv/bin/python tests/bench/gate_cost.py --cli build/harness/warp-compile-probe \
    --python .venv/bin/python
fi
