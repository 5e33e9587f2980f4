#!/usr/bin/env bash
# Speed goals live here, not in tests: Google Benchmark targets for the parser and launch
# encoding, then the end-to-end overhead script (measure ratio, the instrumentation's added
# time per launch, its memory and launch-record size), then cold_units quiet against two busy
# loops the script starts and kills itself (units should move within ±10 %, seconds do not).
# Run on a quiet machine: each script prints the load average it started with.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/ci/setup.sh"
cd "$root"
uptime
for bench in build/tests/log_parser_bench build/tests/launch_encoding_bench build/tests/nvrtc_compile_bench; do
  [ -x "$bench" ] && "$bench" --benchmark_counters_tabular=true
done
.venv/bin/python tests/bench/overhead.py --cli build/harness/warp-compile-probe --python .venv/bin/python "$@"
.venv/bin/python tests/bench/units_bench.py --cli build/harness/warp-compile-probe --python .venv/bin/python
