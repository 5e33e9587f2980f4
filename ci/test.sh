#!/usr/bin/env bash
# The test suite of .ci/run on a fresh machine (docs/testing.md says which test runs where and why):
#   1. set up (packages, .venv with the pinned Warp, build/; .venv-field for the field corpus);
#   2. CTest: unit, integration (real CLI against real Warp), this project's compile budgets and
#      the quick subsets of the long suites (field corpus `field-quick`, the older Warp's adapter
#      and real-Warp files, test_warp_versions on four fixtures); the integration tests labelled
#      `sanitized` wait for step 4. Tests run two at a time, except those that time things
#      (label `timing`, RUN_SERIAL), which run alone;
#   3. the downstream find_package() example against an installed copy, then the wheel
#      (ci/wheel_check.sh: built, repaired, installed into fresh venvs and used there);
#   4. the unit tests again and the integration tests labelled `sanitized` (those that drive the
#      tool's own C++ paths) under AddressSanitizer + UBSan (clang, build-asan/, which also holds
#      the fuzzers);
#   5. each libFuzzer target for a bounded time (WCP_FUZZ_SECONDS, default 60), two at a time.
# The long suites (the whole field corpus, the older Warp's whole pytest suite, the whole
# test_warp_versions, long fuzzing, the gate bench) are ci/full.sh's.
# Set WCP_QUICK=1 to stop after step 3; step 2 then runs every integration test.
# A throwaway PostgreSQL cluster (ci/postgres_cluster.sh) serves the PostgreSQL history's tests
# throughout (WCP_TEST_POSTGRES_URL; one given from outside is used instead).
# The run holds itself to a budget: past WCP_TEST_BUDGET_SECONDS (default 3600; .ci/run's limit is
# 90 minutes, its goal 45) it fails with a line that says so, so a slow creep shows in the run
# that causes it, not when a submission is lost.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
step_prefix=test
source "$root/ci/steps.sh"
budget="${WCP_TEST_BUDGET_SECONDS:-3600}"
# After the last step: a run that passed but took longer than its budget fails, naming it.
within_budget() {
  local total=$(($(date +%s) - steps_started))
  if command -v ccache >/dev/null 2>&1; then
    echo "test: ccache: $(ccache --print-stats 2>/dev/null | awk -F'\t' '$1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" {hits += $2} $1 == "cache_miss" {misses = $2} END {printf "%d hits, %d misses", hits, misses}')" >&2
  fi
  if ((total > budget)); then
    echo "test: FAILED: the run took $total s, over its budget of $budget s (WCP_TEST_BUDGET_SECONDS);" \
      "the step times above show where it grew (docs/testing.md)" >&2
    return 1
  fi
  echo "test: the run took $total s, within its budget of $budget s" >&2
}
# ccache's counters start at zero, so the last line can say how much of this run's compiling
# the cache served (ci/ccache.sh).
command -v ccache >/dev/null 2>&1 && ccache --zero-stats >/dev/null 2>&1 || true
step setup bash "$root/ci/setup.sh"
step field-setup bash "$root/ci/field_setup.sh"
cd "$root"
export WCP_PYTHON="$root/.venv/bin/python"
# A throwaway PostgreSQL cluster for the PostgreSQL history's tests (ci/postgres_cluster.sh): on
# a private Unix socket, stopped and removed when this script exits. Without a server the tests
# that need one are skipped and say why.
if [ -z "${WCP_TEST_POSTGRES_URL:-}" ]; then
  pg_dir="$(mktemp -d "${TMPDIR:-/tmp}/wcp-pg.XXXXXX")"
  trap 'bash "$root/ci/postgres_cluster.sh" stop "$pg_dir"' EXIT
  if url="$(bash "$root/ci/postgres_cluster.sh" start "$pg_dir")"; then
    export WCP_TEST_POSTGRES_URL="$url"
  else
    echo "test: no PostgreSQL test server could start; the PostgreSQL history tests will be skipped" >&2
  fi
fi
# -j: tests run side by side; those that time things (label `timing`, the compile budgets, the
# field programs, the GPU check's rehearsal) are RUN_SERIAL, so CTest runs each of them alone.
# The integration tests labelled `sanitized` run in step 4 instead, under the sanitizers
# (tests/CMakeLists.txt). The whole field corpus (label `field`) and the long suites (label
# `full`) are ci/full.sh's: `-LE` takes a regular expression, anchored so that `field-quick` still
# runs.
if [ "${WCP_QUICK:-0}" = "1" ]; then
  step ctest ctest --test-dir build -j"$(nproc)" -LE '^(field|full)$' --no-tests=error --output-on-failure --timeout 1800 "$@"
  step downstream bash ci/downstream_check.sh build
  step wheel bash ci/wheel_check.sh
else
  step ctest ctest --test-dir build -j"$(nproc)" -LE '^(sanitized|field|full)$' --no-tests=error --output-on-failure \
    --timeout 1800 "$@"
  step downstream bash ci/downstream_check.sh build
  step wheel bash ci/wheel_check.sh
  step sanitizers bash ci/sanitizers.sh
  step fuzz bash ci/fuzz.sh
fi
within_budget
