#!/usr/bin/env bash
# The wheel, tested as a user gets it (issue 43, README "Install"):
#   1. builds the sdist and, from it, the wheel (python -m build, scikit-build-core, the CLI only)
#      and repairs it with auditwheel, which gives it its manylinux tag; prints its name, size,
#      tag and build time;
#   2. measures a fixture with the source build (build/harness/warp-compile-probe, .venv) for the
#      identities to compare against;
#   3. with the checkout and its build tree out of reach (a tmpfs mounted over the checkout in a
#      private mount namespace: we run as root, so permissions would not stop us), in a fresh venv
#      holding only warp-lang (ci/requirements.txt's pins) and the wheel: --version and --cmake-dir
#      of the binary and of `python -m warp_compile_probe`, `measure`, `check` on a budget file,
#      `diagnose`, `compare`, examples/downstream's `ctest -L compile-budget` against the
#      installed CMake package, and `ldd` of the installed binary: every library it resolves is
#      inside the wheel or on auditwheel's manylinux policy list for the wheel's tag;
#   4. pip-installs the wheel into a second fresh venv and shows that `measure --samples 1`
#      there gives the same identities as the source build.
# Needs: .venv-wheel (build tools, ci/requirements-wheel.txt), .venv and build/ (ci/setup.sh).
# Environment: WCP_BUILD_LOCK  a file to flock(1) around the wheel build (a shared machine);
#              WCP_WHEEL_KEEP=1  keep the work folder (wheels, reports, logs) and print its path.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$root/.venv-wheel/bin"
source_cli="$root/build/harness/warp-compile-probe"
source_python="$root/.venv/bin/python"
for needed in "$tools/python" "$source_cli" "$source_python"; do
  [ -x "$needed" ] || { echo "wheel_check: $needed is missing; run bash ci/setup.sh" >&2; exit 2; }
done
# The fresh venvs get the Warp (and NumPy) that the source build's .venv has.
mapfile -t warp_pins < <(grep -E '^(warp-lang|numpy)==' "$root/ci/requirements.txt")

work="$(mktemp -d /tmp/wcp-wheel-check.XXXXXX)"
if [ "${WCP_WHEEL_KEEP:-0}" = "1" ]; then
  trap 'echo "wheel_check: kept $work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
export PYTHONDONTWRITEBYTECODE=1

echo "== 1. sdist and wheel (python -m build: the wheel is built from the sdist)"
if [ -n "${WCP_BUILD_LOCK:-}" ]; then
  exec {lock_fd}>"$WCP_BUILD_LOCK"
  flock "$lock_fd"  # taken before the clock starts: the build time is the build's alone
fi
build_start=$SECONDS
# Without build isolation: the pinned tools of .venv-wheel build it, with no download.
# CMake and Ninja are the system's (ci/setup.sh installs them).
# The sdist first, then the wheel from the sdist's own files, unpacked here (as `python -m build`
# does in a folder of its own): its build folder inside it, and ccache's base folder on it
# (ci/ccache.sh), so the compiles of the same sources hit ccache in the next run too.
build_wheel() {
  PATH="$tools:$PATH" "$tools/python" -m build --no-isolation --sdist --outdir "$work/dist" "$root" || return
  local sdists=("$work"/dist/*.tar.gz) unpacked
  mkdir -p "$work/sdist-source"
  tar -xzf "${sdists[0]}" -C "$work/sdist-source"
  unpacked="$(find "$work/sdist-source" -mindepth 1 -maxdepth 1 -type d)"
  local launcher=()
  if ((ccache_in_use)); then
    launcher=(-Ccmake.define.CMAKE_CXX_COMPILER_LAUNCHER=ccache -Ccmake.define.CMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  CCACHE_BASEDIR="$unpacked" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" PATH="$tools:$PATH" \
    "$tools/python" -m build --no-isolation --wheel --outdir "$work/dist" -Cbuild-dir="$unpacked/build/wheel" "${launcher[@]}" \
    "$unpacked"
}
source "$root/ci/ccache.sh"
if ! build_wheel >"$work/build.log" 2>&1; then
  tail -n 60 "$work/build.log" >&2
  echo "wheel_check: python -m build failed" >&2
  exit 1
fi
build_seconds=$((SECONDS - build_start))
[ -z "${lock_fd:-}" ] || exec {lock_fd}>&-
sdist=("$work"/dist/*.tar.gz)
built=("$work"/dist/*.whl)
PATH="$tools:$PATH" "$tools/auditwheel" repair --wheel-dir "$work/wheelhouse" "${built[0]}" >"$work/repair.log" 2>&1 ||
  { cat "$work/repair.log" >&2; exit 1; }
wheels=("$work"/wheelhouse/*.whl)
wheel="${wheels[0]}"
wheel_name="$(basename "$wheel")"
# name-version-pythontag-abitag-platformtag.whl
wheel_tag="$(sed -E 's/^[^-]+-[^-]+-(.*)\.whl$/\1/' <<<"$wheel_name")"
wheel_version="$(cut -d- -f2 <<<"$wheel_name")"
platform_tag="${wheel_tag##*-}"
echo "sdist: $(basename "${sdist[0]}") ($(stat -c %s "${sdist[0]}") bytes)"
echo "wheel: $wheel_name"
echo "wheel size: $(stat -c %s "$wheel") bytes; tag: $wheel_tag; built in ${build_seconds} s (sdist, wheel, $(nproc) cores)"

# auditwheel's policy for the tag (its manylinux-policy.json): the libraries a manylinux wheel
# may take from the system. The tools venv is in the checkout, so it is read now.
"$tools/python" - "$platform_tag" >"$work/allowed-libraries.txt" <<'EOF'
import json, platform, sys
from importlib import resources
# manylinux_2_34_x86_64 (the first, where auditwheel gives several) -> manylinux_2_34
tag = sys.argv[1].split(".")[0].removesuffix("_" + platform.machine())
policies = json.loads(resources.files("auditwheel").joinpath("policy/manylinux-policy.json").read_text())
matching = [p for p in policies if p["name"] == tag or tag in p.get("aliases", [])]
if not matching:
    sys.exit(f"wheel_check: auditwheel has no policy named {tag}")
print("\n".join(matching[0]["lib_whitelist"]))
EOF

# The inputs, copied out of the checkout before it is hidden: the fixture, the project's budget
# file with the fixtures it names (only its `clean` entry runs), the downstream example.
inputs="$work/inputs"
mkdir -p "$inputs/budgets"
cp -r "$root/fixtures" "$inputs/fixtures"
cp "$root/budgets/fixtures.yaml" "$inputs/budgets/"
cp -r "$root/examples/downstream" "$inputs/downstream"
fixture_dir="$inputs/fixtures/clean"

echo "== 2. the source build's identities (build/harness/warp-compile-probe)"
(cd "$fixture_dir" && "$source_cli" measure --samples 1 --quiet --json "$work/source.json" -- "$source_python" app.py >/dev/null)

# Run inside the private mount namespace: everything it needs is in $work.
installed_checks() {
  set -euo pipefail
  if [ "${hide_checkout:-1}" = "1" ]; then
    mount -t tmpfs -o size=1m,mode=0700 wcp-checkout-hidden "$root"
    if [ -e "$root/CMakeLists.txt" ] || [ -e "$root/build" ]; then
      echo "wheel_check: the checkout is still readable" >&2
      exit 1
    fi
    echo "checkout hidden: $root is an empty tmpfs"
  fi
  # Fresh venvs from the base interpreter: nothing of the checkout's venvs.
  local venv="$work/venv" second="$work/venv-second" base_python
  base_python="$(command -v python3)"
  "$base_python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q "${warp_pins[@]}" "$wheel"
  echo "venv: $("$venv/bin/python" -m pip freeze | tr '\n' ' ')"
  export PATH="$venv/bin:$PATH"
  local binary
  binary="$(command -v warp-compile-probe)"
  [ "$binary" = "$venv/bin/warp-compile-probe" ] || { echo "wheel_check: warp-compile-probe is $binary" >&2; exit 1; }

  local version module_version cmake_dir module_cmake_dir
  version="$(warp-compile-probe --version)"
  module_version="$(python -m warp_compile_probe --version)"
  cmake_dir="$(warp-compile-probe --cmake-dir)"
  module_cmake_dir="$(python -m warp_compile_probe --cmake-dir)"
  echo "--version: $version (python -m: $module_version); --cmake-dir: $cmake_dir (python -m: $module_cmake_dir)"
  if [ "$version" != "$wheel_version" ] || [ "$module_version" != "$wheel_version" ]; then
    echo "wheel_check: --version is not the wheel's $wheel_version" >&2
    exit 1
  fi
  if [ "$cmake_dir" != "$venv" ] || [ "$module_cmake_dir" != "$venv" ]; then
    echo "wheel_check: --cmake-dir is not $venv" >&2
    exit 1
  fi
  # calibrate's CUDA sources, where the installed binary looks (<prefix>/share/warp-compile-probe).
  [ -f "$venv/share/warp-compile-probe/cuda_fixtures/minimal.cu" ] ||
    { echo "wheel_check: the wheel did not install the calibration fixtures into $venv/share" >&2; exit 1; }

  echo "== 3. measure, check, diagnose, compare from the wheel"
  (cd "$fixture_dir" && warp-compile-probe measure --samples 1 --json "$work/wheel.json" -- python app.py)
  WCP_PYTHON="$venv/bin/python" warp-compile-probe check "$inputs/budgets/fixtures.yaml" --only clean
  warp-compile-probe diagnose "$work/wheel.json" >"$work/diagnose.txt"
  head -n 3 "$work/diagnose.txt"
  warp-compile-probe compare "$work/source.json" "$work/wheel.json" --json "$work/compare.json" >/dev/null ||
    [ $? -eq 1 ]  # 1: a verdict that one sample against one may give; anything else is a failure
  python - "$work/compare.json" <<'EOF'
import json, sys
print("compare (source build vs wheel):", json.load(open(sys.argv[1])).get("verdict"))
EOF

  echo "== downstream: examples/downstream against the installed CMake package"
  cmake -S "$inputs/downstream" -B "$work/downstream" -DCMAKE_PREFIX_PATH="$cmake_dir" \
    -DWARP_PYTHON="$venv/bin/python" >/dev/null
  grep -q "WarpCompileProbe_DIR:PATH=$venv/lib/cmake/WarpCompileProbe" "$work/downstream/CMakeCache.txt" ||
    { echo "wheel_check: find_package did not take the installed package" >&2; exit 1; }
  run_downstream_ctest "$work/downstream" "$work/junit.xml"

  echo "== ldd $binary (allowed: the wheel's own libraries, and the $platform_tag policy list)"
  local site libs_dir
  site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')"
  libs_dir="$site/warp_compile_probe.libs"
  ldd "$binary" | tee "$work/ldd.txt"
  # The dynamic loader is the binary's ELF interpreter (PT_INTERP), part of glibc: the policy
  # lists libraries, not the interpreter, which auditwheel leaves out the same way.
  local interpreter line soname path bad=0
  interpreter="$(readelf -l "$binary" | sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')"
  while read -r line; do
    soname="${line%% *}"
    path=""
    [[ "$line" == *" => "* ]] && path="$(sed -E 's/^.* => ([^ ]+).*$/\1/' <<<"$line")"
    [[ "$line" == *"not found"* ]] && { echo "  NOT FOUND: $soname" >&2; bad=1; continue; }
    [[ "$soname" == linux-vdso.so* ]] && continue       # the kernel's, in every process
    [ -n "$interpreter" ] && [ "$soname" = "$interpreter" ] && continue
    if [ -n "$path" ] && [[ "$path" == "$libs_dir"/* ]]; then continue; fi
    grep -qxF "$soname" "$work/allowed-libraries.txt" && continue
    echo "  NOT ALLOWED: $line" >&2
    bad=1
  done <"$work/ldd.txt"
  ((bad == 0)) || { echo "wheel_check: the binary needs libraries outside the wheel and the policy" >&2; exit 1; }
  echo "every library is in the wheel or on the $platform_tag policy list"

  echo "== 4. a second fresh venv: pip install the wheel, measure"
  "$base_python" -m venv "$second"
  "$second/bin/python" -m pip install -q "${warp_pins[@]}" "$wheel"
  (cd "$fixture_dir" && "$second/bin/warp-compile-probe" measure --samples 1 --quiet --json "$work/second.json" \
    -- "$second/bin/python" app.py >/dev/null)
  "$second/bin/python" - "$work/source.json" "$work/second.json" <<'EOF'
import json, sys
def identities(path):
    report = json.load(open(path))
    return report["sample_results"][0]["cold_identities"]
source, wheel = identities(sys.argv[1]), identities(sys.argv[2])
print("identities, source build:", source)
print("identities, wheel:       ", wheel)
if source != wheel or not source:
    sys.exit("wheel_check: the wheel's identities differ from the source build's")
EOF
}

export root work inputs fixture_dir wheel wheel_version platform_tag
export warp_pins_text="${warp_pins[*]}"
source "$root/ci/downstream_ctest.sh"
checks="$(declare -f installed_checks run_downstream_ctest); read -r -a warp_pins <<<\"\$warp_pins_text\"; installed_checks"
if unshare --mount --propagation private -- true 2>/dev/null; then
  unshare --mount --propagation private -- bash -c "$checks"
else
  # A container without the right to make a mount namespace: the checks still run from the
  # copied inputs and the fresh venvs, but nothing proves the checkout unused; say so.
  echo "wheel_check: NOTE: unshare --mount is not permitted here; the checkout stays visible to the checks"
  hide_checkout=0 bash -c "$checks"
fi
echo "wheel check passed: $wheel_name"
