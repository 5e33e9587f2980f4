#!/usr/bin/env bash
# Prepares a fresh Debian machine: system packages, the pinned Warp venvs (.venv, and
# .venv-warp-old for the instrumentation's adapter tests), the wheel's build tools
# (.venv-wheel), NVRTC where there is no CUDA toolkit, and the build (build/).
# Idempotent: a second run installs nothing new and rebuilds incrementally.
# Output: at most one `setup: …` line per step (a step with nothing to do prints none, except the
# build, which always prints one); the configure and build output goes to build/setup.log, and
# only when a command there fails is the log's tail printed (to stderr) and its status returned.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

packages=(
  cmake ninja-build g++ clang libclang-rt-dev ccache
  libgtest-dev libgmock-dev libbenchmark-dev
  libyaml-cpp-dev nlohmann-json3-dev libsqlite3-dev libsqlitecpp-dev libpqxx-dev postgresql libboost-dev libboost-filesystem-dev libcli11-dev libfmt-dev
  python3 python3-venv python3-dev  # python3-dev: headers for the native launch counter
  chromium  # renders the HTML results report in the browser test
  valgrind  # counts the probe's instructions per launch (tests/bench/launch_instructions.py)
  hyperfine  # writes the foreign JSON that readers must refuse (tests/integration/test_foreign_files.py)
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: packages: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  # apt and debconf talk on stderr even when all is well ("debconf: delaying package
  # configuration…"): their output is kept and shown only when a command fails.
  apt_log="$(mktemp)"
  apt_status=0
  { "${sudo_cmd[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"; } >"$apt_log" 2>&1 ||
    apt_status=$?
  if ((apt_status)); then
    { echo "setup: packages: apt-get failed with status $apt_status:"; cat "$apt_log"; } >&2
    rm -f "$apt_log"
    exit "$apt_status"
  fi
  rm -f "$apt_log"
fi

# ensure_venv VENV REQUIREMENTS (ci/venv.sh): each venv gets its pinned requirements exactly,
# and nothing is reinstalled when they already are.
source "$root/ci/venv.sh"
# .venv: the pinned Warp everything runs on. .venv-warp-old: the older Warp API era, only for
# the instrumentation's adapter tests (CTest instrument/warp-old).
ensure_venv .venv ci/requirements.txt
ensure_venv .venv-warp-old ci/requirements-warp-old.txt
# .venv-wheel: the pinned tools that build and repair the wheel (ci/wheel_check.sh, README
# "Install"); CMake and Ninja are the packages above.
ensure_venv .venv-wheel ci/requirements-wheel.txt

# NVRTC, for `calibrate` and the CUDA reference (no GPU needed): a CUDA toolkit's where the tool
# would find one (the same places it looks first: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, the
# loader's search path and cache), else the pinned nvidia-cuda-nvrtc wheel (about 90 MB to
# download, 220 MB installed) in .venv, where the tool looks next (docs/calibration.md).
# WCP_NVRTC_NO_SYSTEM=1 ignores the toolkit here as it does in the tool.
system_nvrtc_found() {
  [ "${WCP_NVRTC_NO_SYSTEM:-0}" = "0" ] || return 1
  local dir library dirs=() ld_dirs=() libraries=() cache
  for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
    [ -n "$dir" ] && dirs+=("$dir/lib64" "$dir/lib")
  done
  IFS=: read -r -a ld_dirs <<<"${LD_LIBRARY_PATH:-}"
  for dir in "${dirs[@]}" "${ld_dirs[@]}"; do
    [ -n "$dir" ] && libraries+=("$dir"/libnvrtc.so*)
  done
  # The loader's cache lists what was there when ldconfig last ran; each file must still be.
  cache="$(ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null || true)"
  while read -r library; do libraries+=("$library"); done < <(sed -n 's/^[[:space:]]*libnvrtc\.so.* => //p' <<<"$cache")
  for library in "${libraries[@]}"; do
    [ -f "$library" ] && return 0
  done
  return 1
}
if [ -n "${WCP_NVRTC:-}" ]; then
  echo "setup: NVRTC: named by WCP_NVRTC=$WCP_NVRTC"
elif system_nvrtc_found; then
  :  # the toolkit's NVRTC; nothing to install
else
  ensure_venv .venv ci/requirements-nvrtc.txt
fi

# A fresh machine builds everything once, so this is a unity build (CMAKE_UNITY_BUILD: eight
# sources per translation unit, so the JSON, fmt and CLI11 templates are compiled once per eight
# files, not once per file) with -g1 (function names and line tables: enough for backtraces and
# profilers). On two cores the two together took this build from 13 minutes to about 5. To edit
# and rebuild one file at a time: cmake -B build -DCMAKE_UNITY_BUILD=OFF.
# WCP_REQUIRE_NVRTC: NVRTC is there now (above), so the tests that need it fail rather than
# skip when the tool cannot find it.
# Configure and build write to build/setup.log (this run's only), not the terminal: the step prints
# one line, `setup: build … ok (N s)`. When a command fails, the line ends in `failed`, the log's
# last 200 lines go to stderr with its path, and setup exits with that command's status.
log=build/setup.log
mkdir -p build
: >"$log"
logged() {
  local status=0
  "$@" >>"$log" 2>&1 || status=$?
  if ((status)); then
    echo "failed ($((SECONDS - build_start)) s)"
    {
      echo "setup: '$*' failed with status $status; the last 200 lines of $root/$log:"
      tail -n 200 "$log"
      echo "setup: failed; the whole log is $root/$log"
    } >&2
    exit "$status"
  fi
}
# ccache (ci/ccache.sh) serves the release, ASan and fuzzer builds: a second run, or a fresh clone
# elsewhere on the same machine, compiles only what changed.
source "$root/ci/ccache.sh"
build_start=$SECONDS
printf 'setup: build … '
logged cmake -S . -B build -G Ninja "${ccache_launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DCMAKE_UNITY_BUILD=ON -DWCP_PYTHON="$root/.venv/bin/python" \
  -DWCP_PYTHON_WARP_OLD="$root/.venv-warp-old/bin/python" -DWCP_REQUIRE_NVRTC=ON
logged cmake --build build -j"$(nproc)"
echo "ok ($((SECONDS - build_start)) s; log $log)"
