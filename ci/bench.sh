#!/usr/bin/env bash
# Speed goals live here, not in tests: Google Benchmark targets for the parser, the launch
# record (encoding, and compare of two 10^6-launch records) and NVRTC, then the end-to-end
# overhead script (measure ratio, the instrumentation's added time per launch, its memory and
# launch-record size), the added time per launch by launch shape and per load (neutrality),
# then cold_units quiet against two busy loops the script starts and kills itself (units should
# move within ±10 %, seconds do not), then A/A stability of `ab` against separate measures under the same busy loops.
# Run on a quiet machine: each script prints the load average it started with.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/ci/setup.sh"
cd "$root"
uptime
# Every Google Benchmark target the build has (tests/bench/*_bench.cpp); a missing one is an error.
for source in tests/bench/*_bench.cpp; do
  bench="build/tests/$(basename "$source" .cpp)"
  "$bench" --benchmark_counters_tabular=true
done
.venv/bin/python tests/bench/overhead.py --cli build/harness/warp-compile-probe --python .venv/bin/python "$@"
# The probe's cost per launch by launch shape (CPU and CUDA-shaped, on the fake Warp), and what
# it adds to Warp's own load timers, cold and warm, on both Warp versions.
.venv/bin/python tests/bench/launch_cost.py
# The same on real Warp CPU launches (string, Device, default device, many arguments, a struct,
# launch_tiled, record_cmd replays), on both Warp versions; the goal is the pinned Warp's.
.venv/bin/python tests/bench/real_launch_cost.py --python .venv/bin/python --python .venv-warp-old/bin/python
# ... and with the Python counter, what an interpreter that cannot load the native one gets.
.venv/bin/python tests/bench/real_launch_cost.py --python .venv/bin/python --python-counter
# The same shapes in instructions per launch under callgrind (no timing noise; a few minutes).
.venv/bin/python tests/bench/launch_instructions.py --chunk 300
.venv/bin/python tests/bench/neutrality_bench.py --cli build/harness/warp-compile-probe --python .venv/bin/python \
  --python .venv-warp-old/bin/python
.venv/bin/python tests/bench/units_bench.py --cli build/harness/warp-compile-probe --python .venv/bin/python
.venv/bin/python tests/bench/ab_stability.py --cli build/harness/warp-compile-probe --python .venv/bin/python
.venv/bin/python tests/bench/predictions_bench.py --cli build/harness/warp-compile-probe --python .venv/bin/python
# What a compile-budget gate costs against a bare cold + warm run, and its A/A and B/A verdicts
# (samples: auto; 15-25 minutes, depending on how many runs auto takes).
.venv/bin/python tests/bench/gate_cost.py --cli build/harness/warp-compile-probe --python .venv/bin/python
# What `measure --cuda-arch` adds: the program's cold wall with and without the exit-time CUDA
# builds, and their window against their CPU time over the threads used (docs/cuda-build.md).
.venv/bin/python tests/bench/cuda_build_cost.py --cli build/harness/warp-compile-probe --python .venv/bin/python
