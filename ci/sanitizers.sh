#!/usr/bin/env bash
# Builds the CLI and the unit tests with clang, AddressSanitizer + UndefinedBehaviorSanitizer
# (CMake preset `asan`, build-asan/, which also holds the libFuzzer targets ci/fuzz.sh runs) and
# runs every unit test and the integration tests that drive the tool's own C++ paths (CTest label
# `sanitized`) under it.
# The targets the integration tests start (Python, Warp) are not instrumented; the tool is.
#   WCP_PYTHON      interpreter with warp-lang (default: .venv/bin/python, made by ci/setup.sh)
#   WCP_ASAN_JOBS   parallel build jobs (default: nproc)
#   extra arguments go to ctest (e.g. -R faults)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
python="${WCP_PYTHON:-$root/.venv/bin/python}"
build="${WCP_ASAN_BUILD_DIR:-$root/build-asan}"

if [ "$build" = "$root/build-asan" ]; then
  cmake --preset asan -DWCP_PYTHON="$python" >/dev/null
else
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ \
    -DWCP_PYTHON="$python" -DWCP_BUILD_FUZZERS=ON -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_CXX_FLAGS="-O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
cmake --build "$build" -j"${WCP_ASAN_JOBS:-$(nproc)}" --target warp-compile-probe unit_tests

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/ci/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The flood test keeps its 1 GiB under ASan but does not hold ASan's shadow memory against the
# tool's RSS bound (test_faults.py reads this).
export WCP_SANITIZED=1
# The integration tests labelled `sanitized` (tests/CMakeLists.txt says which and why) run here
# and only here when ci/test.sh runs this script. One ctest call for both labels, so extra
# arguments (-R faults) select from all of them, and --no-tests=error fails a selection that
# matches nothing instead of passing it (the integration tests are RUN_SERIAL: -j runs them alone).
ctest_log="$build/sanitized-ctest.log"
if ctest --test-dir "$build" -L '^(unit|sanitized)$' -j"$(nproc)" --no-tests=error --output-on-failure --timeout 3600 \
  --output-log "$ctest_log" "$@"; then
  exit 0
fi
# LeakSanitizer's own stop-the-world tracer can crash at exit ("Tracer caught signal 11",
# "LeakSanitizer has encountered a fatal error") after a test has passed: seen once in a clean
# clone's run (CalibrateNvrtc.ProbesOptionSupport, 0 of 80 reruns beside load). That is LSan
# failing, not a finding, so when every failed test is such a crash those tests run once more;
# any other failure fails here, and a crash that repeats fails the rerun.
failed_list="$build/Testing/Temporary/LastTestsFailed.log"
failed=$(grep -c . "$failed_list" 2>/dev/null || true)
crashed=$(grep -c "LeakSanitizer has encountered a fatal error" "$ctest_log" || true)
if [ "${failed:-0}" -gt 0 ] && [ "$crashed" -ge "$failed" ]; then
  echo "sanitizers: $failed test(s) failed only by LeakSanitizer's own crash; running them once more"
  exec ctest --test-dir "$build" --rerun-failed --no-tests=error --output-on-failure --timeout 3600
fi
exit 1
