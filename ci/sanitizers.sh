#!/usr/bin/env bash
# Builds the whole suite with AddressSanitizer + UndefinedBehaviorSanitizer (CMake preset
# `asan`, build-asan/) and runs the unit and integration tests under it. The targets the
# integration tests start (Python) are not instrumented; the tool that starts them is.
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
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DWCP_PYTHON="$python" \
    -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
cmake --build "$build" -j"${WCP_ASAN_JOBS:-$(nproc)}" --target warp-compile-probe unit_tests

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/ci/lsan.supp:print_suppressions=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# The flood test keeps its 1 GiB under ASan but does not hold ASan's shadow memory against the
# tool's RSS bound (test_faults.py reads this).
export WCP_SANITIZED=1
# test_warp_versions runs the fixture catalogue on two Warp versions: what differs between them
# is the injected Python, which a sanitizer does not see; the tool's C++ paths it takes are
# test_measure's, which runs here. test_neutrality times Warp's own load timers with and without
# the injected Python: its C++ paths (measure, --trace) are test_measure's too.
ctest --test-dir "$build" -L 'unit|integration' -E 'integration/test_(warp_versions|neutrality)' --output-on-failure \
  --timeout 3600 "$@"
