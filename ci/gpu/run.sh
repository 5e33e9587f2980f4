#!/usr/bin/env bash
# The run step of the GPU check (docs/gpu-check.md), on a GPU machine, from a pack that
# ci/gpu/pack.sh made and the device calls carried there:
#
#   bash .gpu-pack/p1/tree/ci/gpu/run.sh --preflight     call 1: what arrived, the CLI loads, the GPU
#   bash .gpu-pack/p1/tree/ci/gpu/run.sh --limit 300     the last call: join and unpack Warp, run every check
#   bash .gpu-pack/p1/tree/ci/gpu/run.sh --only IDS      rerun chosen checks (comma-separated ids or
#                                                        prefixes such as `findings`; `failed` = those
#                                                        that did not pass last time on this machine)
#   bash ci/gpu/run.sh --rehearse [--keep]               here, on the CPU: pack.sh, then run.sh from the
#                                                        pack in a scratch folder (ctest -R gpu-rehearsal)
#
# Options: --pack DIR (default: the pack this script sits in, else .gpu-pack), --out DIR (default
# $OUT, else ./gpu-results), --python PY (default python3), --jobs N (checks side by side; default
# the cores), --limit SECONDS (cut off there, packing what it has; default 300).
#
# It joins the Warp parts and unpacks them with Python's tarfile/lzma into $WCP_GPU_WORK
# (default PACK/work, ignored, so a warm machine keeps it for a rerun), puts that folder first on PYTHONPATH, runs the CLI through the pack's
# wrapper (its libraries for the CLI process only), runs the checks of
# ci/gpu/checks/run_checks.py, and leaves in the out folder: summary.txt, summary.json and
# results.tar.xz (every check's log, reports and the fresh recordings) — three files of the
# eight a device call brings back.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tree="$(cd "$here/../.." && pwd)"
pack=""
out="${OUT:-$PWD/gpu-results}"
python=python3
jobs=""
limit=300
only=""
mode=run
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --pack) pack="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --python) python="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --limit) limit="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --preflight) mode=preflight; shift ;;
    --rehearse) mode=rehearse; shift ;;
    --keep) keep=1; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
started=$(date +%s)

if [ "$mode" = rehearse ]; then
  if [ "$keep" = 1 ]; then exec bash "$here/rehearse.sh" --keep; else exec bash "$here/rehearse.sh"; fi
fi

if [ -z "$pack" ]; then
  if [ -f "$tree/../MANIFEST.json" ]; then pack="$(cd "$tree/../.." && pwd)"; else pack="$tree/.gpu-pack"; fi
fi
manifest="$pack/p1/MANIFEST.json"
mkdir -p "$out"
work="${WCP_GPU_WORK:-$pack/work}"  # ignored, so it stays on a warm machine between calls
mkdir -p "$work"
log="$out/run.log"
say() { echo "$*" | tee -a "$log"; }
: >"$log"
# The summary when the run cannot start: what is missing, and what to do.
stop() {
  say "run.sh: $1"
  { echo "GPU check: NOT RUN"; echo "$1"; } >"$out/summary.txt"
  exit "${2:-2}"
}

[ -f "$manifest" ] || stop "no pack at $pack (no p1/MANIFEST.json): carry .gpu-pack/p1 in this call or the one before it (docs/gpu-check.md)"
command -v "$python" >/dev/null || stop "no interpreter '$python' here"
say "pack $pack: $("$python" -c "import json,sys; m=json.load(open(sys.argv[1])); print(f\"commit {m['commit'][:10]}{' (dirty)' if m['dirty'] else ''}, Warp {m['warp_version']}, {m['calls']} part(s), packed {m['packed_at']}\")" "$manifest")"

# --- the parts: which arrived (a part carried by an earlier call stays while the machine is warm)
missing="$("$python" - "$pack" "$manifest" <<'EOF'
import hashlib, json, os, sys
pack, manifest = sys.argv[1], json.load(open(sys.argv[2]))
for part in manifest["parts"]:
    path = os.path.join(pack, part["path"])
    if not os.path.isfile(path) or os.path.getsize(path) != part["bytes"]:
        print(part["path"])
        continue
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    if digest.hexdigest() != part["sha256"]:
        print(part["path"] + " (damaged)")
EOF
)"

# --- the CLI: this machine's glibc and libstdc++ against what it needs, then one real call ---
requires="$pack/p1/cli/requires.txt"
need_glibc="$(sed -n 's/^GLIBC //p' "$requires")"
need_glibcxx="$(sed -n 's/^GLIBCXX //p' "$requires")"
bundled="$(sed -n 's/^bundled_runtime //p' "$requires")"
have_glibc="$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{print $2}')"
ldconfig="$(command -v ldconfig || ls /sbin/ldconfig /usr/sbin/ldconfig 2>/dev/null | head -1)"
libstdcxx="$(${ldconfig:-false} -p 2>/dev/null | awk '/libstdc\+\+\.so\.6 .*x86-64/ {print $NF; exit}')"
have_glibcxx="$( [ -n "$libstdcxx" ] && grep -ao 'GLIBCXX_3\.4\.[0-9]*' "$libstdcxx" | sort -uV | tail -1 | sed 's/GLIBCXX_//')"
older() { [ "$1" != "$2" ] && [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -1)" = "$1" ]; }
say "CLI needs glibc $need_glibc and GLIBCXX $need_glibcxx; this machine has glibc ${have_glibc:-unknown} and GLIBCXX ${have_glibcxx:-unknown} ($libstdcxx)"
if [ "$bundled" != 1 ]; then
  if [ -n "$have_glibc" ] && older "$have_glibc" "$need_glibc"; then
    stop "this machine's glibc $have_glibc is older than the $need_glibc the packed CLI needs: pack again with 'bash ci/gpu/pack.sh --bundle-runtime' (docs/gpu-check.md#fallback)"
  fi
  if [ -n "$have_glibcxx" ] && older "$have_glibcxx" "$need_glibcxx"; then
    stop "this machine's libstdc++ (GLIBCXX $have_glibcxx) is older than the $need_glibcxx the packed CLI needs: pack again with 'bash ci/gpu/pack.sh --bundle-runtime' (docs/gpu-check.md#fallback)"
  fi
fi
cli="$pack/p1/cli/warp-compile-probe"
version="$("$cli" --version 2>&1)" || stop "the packed CLI does not run here: $version"
say "CLI: $version"
if command -v nvidia-smi >/dev/null; then
  say "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -1)"
else
  say "GPU: no nvidia-smi on this machine"
fi
say "python: $("$python" -c 'import sys; print(sys.version.split()[0])') ($(command -v "$python")), numpy $("$python" -c 'import numpy; print(numpy.__version__)' 2>&1 | tail -1)"

if [ "$mode" = preflight ]; then
  if [ -n "$missing" ]; then
    say "parts not here yet (the next call carries them; make it within 30 s, while this machine is warm): $(echo $missing)"
  else
    say "every part is here: the next call can run the checks"
  fi
  cp "$log" "$out/summary.txt"
  exit 0
fi
if [ -n "$missing" ]; then
  stop "Warp part(s) missing here: $(echo $missing). The machine was not warm (a part carried by an earlier call is gone once it idles 30 s): make the calls of docs/gpu-check.md again, each right after the other"
fi

# --- Warp: the parts joined as one stream, unpacked with Python's tarfile (lzma) ---------------
site="$work/site"
stamp="$("$python" -c "import json,sys; print(''.join(p['sha256'][:12] for p in json.load(open(sys.argv[1]))['parts']))" "$manifest")"
if [ "$(cat "$site/.unpacked" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$site"
  mkdir -p "$site"
  unpack_started=$(date +%s)
  "$python" - "$pack" "$manifest" "$site" <<'EOF' || stop "unpacking Warp failed"
import io, json, os, sys, tarfile
pack, manifest, site = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]

class Joined(io.RawIOBase):
    """The parts read one after another, as one file."""
    def __init__(self, paths):
        self.paths, self.handle = list(paths), None
    def readable(self):
        return True
    def readinto(self, buffer):
        while True:
            if self.handle is None:
                if not self.paths:
                    return 0
                self.handle = open(self.paths.pop(0), "rb")
            count = self.handle.readinto(buffer)
            if count:
                return count
            self.handle.close()
            self.handle = None

stream = io.BufferedReader(Joined(os.path.join(pack, p["path"]) for p in manifest["parts"]), 1 << 20)
with tarfile.open(fileobj=stream, mode="r|*") as archive:  # xz (the pack), gzip (the rehearsal's --fast)
    kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
    archive.extractall(site, **kwargs)
EOF
  echo "$stamp" >"$site/.unpacked"
  say "Warp unpacked into $site in $(( $(date +%s) - unpack_started )) s"
else
  say "Warp already unpacked in $site (same parts)"
fi

# --- the checks ---------------------------------------------------------------------------------
export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
export WCP_WARP_SITE="$site" WCP_CLI="$cli" WCP_CLI_DIR="$pack/p1/cli" WCP_PYTHON="$python"
export WCP_SOURCE_DIR="$pack/p1/tree" WCP_FIXTURE_DEVICE="${WCP_FIXTURE_DEVICE:-cuda:0}" PYTHONDONTWRITEBYTECODE=1
export PYTHONUNBUFFERED=1
results="$work/results"
if [ -n "$only" ]; then
  mkdir -p "$results"  # a rerun keeps the other checks' results of the last run
else
  rm -rf "$results"
  mkdir -p "$results"
fi
deadline=$(( started + limit - 15 ))  # 15 s to pack what there is
"$python" "$pack/p1/tree/ci/gpu/checks/run_checks.py" --results "$results" --deadline "$deadline" \
  ${jobs:+--jobs "$jobs"} ${only:+--only "$only"} --manifest "$manifest" --summary "$out/summary.txt" \
  --summary-json "$out/summary.json" --last-summary "$work/last-summary.json" 2>&1 | tee -a "$log"
status=${PIPESTATUS[0]}
cp "$out/summary.json" "$work/last-summary.json" 2>/dev/null
cp "$log" "$results/run.log"
tar -C "$work" -cf - results | "$python" -c "import lzma,sys; sys.stdout.buffer.write(lzma.compress(sys.stdin.buffer.read(), preset=6))" \
  >"$out/results.tar.xz"
say "results: $out/results.tar.xz ($(du -k "$out/results.tar.xz" | cut -f1) KiB); run.sh took $(( $(date +%s) - started )) s"
exit "$status"
