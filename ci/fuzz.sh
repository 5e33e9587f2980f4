#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `asan`: clang, ASan+UBSan, the same build-asan/ as
# ci/sanitizers.sh, so after it only the four fuzz executables are new) and runs each one for a
# bounded time over its seed corpus (real files of the repo) and a working corpus kept in
# build-asan/corpus/<target>. Fails on the first crash, hang, leak or sanitizer report.
#   WCP_FUZZ_SECONDS   seconds per target (default 60; CI uses the default)
#   WCP_FUZZ_JOBS      parallel build jobs (default: nproc)
#   WCP_FUZZ_TARGETS   space-separated subset of targets (default: all four; each must be built)
#   WCP_FUZZ_PARALLEL  targets fuzzed at once (default: nproc)
# A longer local run: WCP_FUZZ_SECONDS=3600 ci/fuzz.sh   (docs/robustness.md)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds="${WCP_FUZZ_SECONDS:-60}"
build="${WCP_FUZZ_BUILD_DIR:-$root/build-asan}"
source "$root/ci/ccache.sh"

if [ "$build" = "$root/build-asan" ]; then
  # Configured already when ci/sanitizers.sh ran first (it also sets WCP_PYTHON); else the preset.
  [ -f "$build/CMakeCache.txt" ] || cmake --preset asan "${ccache_launcher[@]}" >/dev/null
else
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo "${ccache_launcher[@]}" \
    -DWCP_BUILD_FUZZERS=ON -DWCP_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" -j"${WCP_FUZZ_JOBS:-$(nproc)}" --target fuzzers

# Seed directories per target: the curated corpus plus the real files it is meant to read.
seeds_for() {
  case "$1" in
    log_scanner_fuzz) echo "tests/data/fuzz/log_scanner tests/data/logs" ;;
    probe_events_fuzz) echo "tests/data/fuzz/probe_events" ;;
    report_json_fuzz) echo "tests/data/fuzz/report_json tests/data/reports" ;;
    budget_fuzz) echo "tests/data/fuzz/budget budgets tests/data/budgets" ;;
  esac
}

# Every target must have been built: a missing one fails the run (a fuzzer that did not build
# fuzzed nothing, and must not read as a pass), and so does a run with no target at all.
all_targets="log_scanner_fuzz probe_events_fuzz report_json_fuzz budget_fuzz"
targets="${WCP_FUZZ_TARGETS:-$all_targets}"
missing=()
for target in $targets; do
  case " $all_targets " in
    *" $target "*) ;;
    *) echo "fuzz: unknown target '$target' (known: $all_targets)" >&2; exit 1 ;;
  esac
  [ -x "$build/tests/fuzz/$target" ] || missing+=("$target")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "fuzz: not built: ${missing[*]} (expected in $build/tests/fuzz/)" >&2
  exit 1
fi
if [ -z "${targets// /}" ]; then
  echo "fuzz: no target selected (WCP_FUZZ_TARGETS is blank)" >&2
  exit 1
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# One target: its log, and a result line in $build/<target>.result that the summary reads.
fuzz_target() {
  local target="$1" corpus="$build/corpus/$1" artifacts="$build/artifacts/$1/" dir seeds=() result
  mkdir -p "$corpus" "$artifacts"
  for dir in $(seeds_for "$target"); do
    if [ -d "$dir" ]; then seeds+=("$dir"); fi
  done
  local log="$build/$target.log"
  echo "fuzz: $target for ${seconds}s (seeds: ${seeds[*]})"
  # -max_len: budgets and reports are small files; 64 KiB leaves room for odd ones.
  # -timeout: one input taking more than 10 s is a hang. -rss_limit_mb: a bound on memory.
  if "$build/tests/fuzz/$target" "$corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts" >"$log" 2>&1; then
    result=ok
  else
    result=FAILED
  fi
  local execs
  execs="$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' | tail -n 1)"
  printf '%-20s %-6s %12s execs  corpus %s files\n' "$target" "$result" "${execs:-?}" "$(ls "$corpus" | wc -l)" \
    >"$build/$target.result"
}

# Each target is one single-threaded process: they run WCP_FUZZ_PARALLEL at a time (default:
# the cores), each for its full time.
parallel="${WCP_FUZZ_PARALLEL:-$(nproc)}"
running=0
for target in $targets; do
  rm -f "$build/$target.result"
  fuzz_target "$target" &
  running=$((running + 1))
  if ((running >= parallel)); then
    wait -n || true
    running=$((running - 1))
  fi
done
wait
status=0
summary=()
for target in $targets; do
  line="$(cat "$build/$target.result" 2>/dev/null || printf '%-20s %-6s (no result)' "$target" FAILED)"
  summary+=("$line")
  if [[ "$line" != *" ok "* ]]; then
    status=1
    echo "fuzz: $target failed; the last 60 lines of $build/$target.log:"
    tail -n 60 "$build/$target.log" 2>/dev/null || true
  fi
done
echo
echo "fuzz summary (${seconds}s per target, $parallel at a time):"
printf '  %s\n' "${summary[@]}"
exit "$status"
