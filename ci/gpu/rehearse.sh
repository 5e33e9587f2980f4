#!/usr/bin/env bash
# The GPU check rehearsed on this CPU machine (`bash ci/gpu/run.sh --rehearse`; CTest
# gpu-rehearsal), so the pack and run steps cannot rot between GPU runs:
#   1. ci/gpu/pack.sh --fast into a scratch folder (gzip -1 instead of xz -9: the same contents,
#      split the same way, read by the same tarfile stream in run.sh);
#   2. a scratch "machine" that gets only the pack, part by part as the device calls carry it:
#      call 1 (p1) and run.sh --preflight; run.sh with a part missing must refuse, naming it;
#      then the remaining parts and the full run.sh;
#   3. every run.sh starts from `env -i` with a Python that has no Warp of its own (the venv's
#      base interpreter, numpy alone on PYTHONPATH): Warp comes from the joined parts only, the
#      CLI loads its libraries from the pack only (the setup check asserts both);
#   4. the summary must list every planned check id; setup and cpu-fixture (one CPU fixture
#      measured end to end) must pass, and every CUDA check must be skipped with its reason
#      (no CUDA device) — or pass, on a machine that has one.
# --keep leaves the scratch folder and prints it.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
keep=0
[ "${1:-}" = --keep ] && keep=1
cli="${WCP_CLI:-$root/build/harness/warp-compile-probe}"
venv_python="${WCP_PYTHON:-$root/.venv/bin/python}"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/wcp-rehearsal.XXXXXX")"
if [ "$keep" = 1 ]; then echo "rehearsal: scratch folder $scratch (kept)"; else trap 'rm -rf "$scratch"' EXIT; fi
started=$(date +%s)

# 1. the pack, as ci/gpu/pack.sh makes it
bash "$root/ci/gpu/pack.sh" --fast --no-cache --cli "$cli" --python "$venv_python" --out "$scratch/here/.gpu-pack"
packed=$(date +%s)

# 3. an interpreter without Warp: the venv's base Python, and numpy alone beside it (the GPU
# image's python3 has numpy and no Warp)
read -r base numpy_dir < <("$venv_python" -c "import os, sys, numpy; print(sys._base_executable, os.path.dirname(os.path.dirname(numpy.__file__)))")
mkdir -p "$scratch/numpy-only"
for name in numpy numpy.libs; do
  if [ -e "$numpy_dir/$name" ]; then ln -s "$numpy_dir/$name" "$scratch/numpy-only/$name"; fi
done
if env -i PATH=/usr/bin:/bin "$base" -c "import warp" 2>/dev/null; then
  echo "rehearsal: $base imports a Warp of its own: the rehearsal could not tell the pack's Warp from it" >&2
  exit 1
fi
machine() {  # run.sh as a device call runs it: only the pack, a clean environment
  env -i HOME="$scratch/home" PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin TMPDIR="${TMPDIR:-/tmp}" LANG=C.UTF-8 \
    XDG_CACHE_HOME="$scratch/xdg" PYTHONPATH="$scratch/numpy-only" WCP_REHEARSAL=1 WCP_GPU_WORK="$scratch/work" \
    bash "$scratch/machine/.gpu-pack/p1/tree/ci/gpu/run.sh" --python "$base" "$@"
}
mkdir -p "$scratch/home" "$scratch/machine/.gpu-pack"
parts=$(ls -d "$scratch/here/.gpu-pack"/p* | wc -l)

# 2. call 1 carries p1
cp -a "$scratch/here/.gpu-pack/p1" "$scratch/machine/.gpu-pack/"
machine --preflight --out "$scratch/out-call1" >"$scratch/call1.log" 2>&1 || {
  cat "$scratch/call1.log"; echo "rehearsal: run.sh --preflight failed" >&2; exit 1; }
if [ "$parts" -gt 1 ]; then
  grep -q "parts not here yet" "$scratch/call1.log" || { cat "$scratch/call1.log"; echo "rehearsal: preflight did not name the missing parts" >&2; exit 1; }
  if machine --out "$scratch/out-cold" >"$scratch/not-warm.log" 2>&1; then
    cat "$scratch/not-warm.log"; echo "rehearsal: run.sh ran with a Warp part missing" >&2; exit 1
  fi
  grep -q "missing here" "$scratch/out-cold/summary.txt" || { cat "$scratch/out-cold/summary.txt"; exit 1; }
  for part in "$scratch/here/.gpu-pack"/p*; do
    [ "$(basename "$part")" = p1 ] || cp -a "$part" "$scratch/machine/.gpu-pack/"
  done
fi
echo "rehearsal: call 1 and the missing-part refusal as expected ($parts part(s))"

# 2. the last call runs the checks
run_started=$(date +%s)
status=0
machine --out "$scratch/out" --limit 110 --jobs 2 || status=$?
finished=$(date +%s)

# 4. what the summary must say
"$venv_python" - "$scratch/out" "$scratch/machine/.gpu-pack/p1/tree" "$status" <<'EOF'
import json, os, sys, tarfile
out, tree, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [os.path.join(tree, "ci", "gpu", "checks"), os.path.join(tree, "tests"), os.path.join(tree, "tests", "integration")]
os.environ["WCP_SOURCE_DIR"] = tree
import cuda_device
from run_checks import plan
summary = json.load(open(os.path.join(out, "summary.json")))
text = open(os.path.join(out, "summary.txt")).read()
results = {c["id"]: c for c in summary["checks"]}
planned = [c.id for c in plan(2)]
problems = [f"{i}: not in the summary" for i in planned if i not in results or i not in text]
cuda_here = cuda_device.hardware()[0]
for check in plan(2):
    result = results.get(check.id)
    if result is None:
        continue
    if not check.cuda:
        if result["status"] != "passed":
            problems.append(f"{check.id}: {result['status']} ({result.get('reason')}; {result.get('failures')})")
    elif cuda_here:
        if result["status"] not in ("passed", "skipped"):
            problems.append(f"{check.id}: {result['status']} on a machine with CUDA ({result.get('reason')})")
    elif result["status"] != "skipped" or not result.get("reason", "").startswith("no CUDA device"):
        problems.append(f"{check.id}: {result['status']}, expected skipped with its reason ({result.get('reason')})")
with tarfile.open(os.path.join(out, "results.tar.xz")) as archive:
    names = archive.getnames()
if "results/setup/result.json" not in names or "results/cpu-fixture/clean_app.cpu.json" not in names:
    problems.append("results.tar.xz lacks the setup result or the CPU fixture's report")
if status != 0:
    problems.append(f"run.sh exited {status}")
print(text)
if problems:
    sys.exit("rehearsal FAILED:\n  " + "\n  ".join(problems))
setup = results["setup"]["figures"]
print(f"rehearsal: warp from {setup.get('warp from')}; CLI libraries {setup.get('cli libraries')}")
EOF
echo "rehearsal passed: pack $((packed - started)) s, run $((finished - run_started)) s, total $((finished - started)) s"
