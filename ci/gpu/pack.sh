#!/usr/bin/env bash
# The pack step of the GPU check (docs/gpu-check.md): puts into one ignored folder everything
# ci/gpu/run.sh needs on a GPU machine that has Python 3.12, numpy and a CUDA toolkit but no
# Warp and no network, in parts that each fit one device call (64 MiB with the working tree):
#
#   OUT/p1/cli/       the stripped CLI (libexec/), the shared libraries ldd names beyond glibc,
#                     libstdc++ and libgcc_s (lib/), a wrapper that loads them for the CLI only,
#                     and the glibc/libstdc++ symbol versions the CLI needs (requires.txt)
#   OUT/p1/tree/      ci/gpu (run step, checks, recording runners), the fixtures and the test
#                     helpers the checks import, the probe's Python instrumentation
#   OUT/pN/warp.tar.xz.NN   the pinned Warp (warp/ and its dist-info, without warp/tests,
#                     warp/examples and bytecode) as one xz tar stream, split into parts
#                     (warp.tar.gz.NN with --fast)
#   OUT/p1/MANIFEST.json    commit, Warp version and wheel tag, every part's size and sha256
#
# Prints each part's compressed size and the number of device calls the pack implies.
#
#   bash ci/gpu/pack.sh [--out DIR] [--cli PATH] [--python PY] [--level 0-9] [--fast]
#                       [--no-cache] [--room MIB] [--bundle-runtime]
#
# --fast: gzip -1 instead of xz (the rehearsal: a fifth of xz -0's CPU time; run.sh reads either
# with Python's tarfile); --level N: xz level (default 9). The Warp archive is kept
# in .gpu-pack-cache/ keyed by Warp's RECORD, the level and this script, so only the first pack
# of a Warp version compresses it (minutes at level 9 on a busy 2-core machine); --no-cache
# always compresses. --room: MiB left free in each call (default 6). --bundle-runtime: also
# pack this machine's loader, libc, libm, libstdc++ and libgcc_s and let the wrapper use them:
# the fallback for a GPU image whose glibc is older than the CLI needs (run.sh says when).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="$root/.gpu-pack"
cli="$root/build/harness/warp-compile-probe"
python="$root/.venv/bin/python"
codec=xz
level=9
use_cache=1
room_mib=6
bundle_runtime=0
call_mib=64
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    --python) python="$2"; shift 2 ;;
    --level) level="$2"; shift 2 ;;
    --fast) codec=gzip; level=1; shift ;;
    --no-cache) use_cache=0; shift ;;
    --room) room_mib="$2"; shift 2 ;;
    --bundle-runtime) bundle_runtime=1; shift ;;
    *) echo "pack.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
started=$(date +%s)
[ -x "$cli" ] || { echo "pack.sh: no CLI at $cli: build it first (cmake --build build)" >&2; exit 2; }
[ -x "$python" ] || { echo "pack.sh: no interpreter at $python" >&2; exit 2; }
case "$out" in /|"$root"|"$HOME") echo "pack.sh: refusing --out $out" >&2; exit 2 ;; esac
rm -rf "$out"
mkdir -p "$out/p1/cli/lib" "$out/p1/cli/libexec" "$out/p1/tree"

# --- Warp: where it is installed, and whether its files work under another CPython ----------
read -r site warp_version < <("$python" - <<'EOF'
import os, warp
print(os.path.dirname(os.path.dirname(os.path.abspath(warp.__file__))), warp.config.version)
EOF
)
dist_info="$(cd "$site" && ls -d warp_lang-"$warp_version".dist-info)"
wheel_tag="$(sed -n 's/^Tag: //p' "$site/$dist_info/WHEEL" | paste -sd' ')"
case "$wheel_tag" in
  py3-none-*) ;;
  *) echo "pack.sh: Warp's wheel tag is '$wheel_tag', not py3-none-*: it may hold CPython extensions that another Python cannot load" >&2; exit 1 ;;
esac
extensions="$(cd "$site" && find warp \( -name '*.cpython-*.so' -o -name '*.abi3.so' -o -name '*.pyd' \) | head -5)"
if [ -n "$extensions" ]; then
  echo "pack.sh: Warp holds CPython extension modules, which a Python 3.12 cannot load: $extensions" >&2
  exit 1
fi
native_libraries="$(cd "$site" && find warp -name '*.so*' | sort | paste -sd' ')"

# --- the CLI: stripped, with the libraries ldd names beyond glibc, libstdc++ and libgcc_s ---------
objcopy --strip-all "$cli" "$out/p1/cli/libexec/warp-compile-probe"
host_libraries=()
while read -r name arrow path _; do
  [ "$arrow" = "=>" ] || continue
  case "$name" in
    libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|libutil.so.*|libmvec.so.*|\
    libstdc++.so.*|libgcc_s.so.*)
      host_libraries+=("$path"); continue ;;
  esac
  cp -L "$path" "$out/p1/cli/lib/$name"
done < <(ldd "$cli")
loader=/lib64/ld-linux-x86-64.so.2
if [ "$bundle_runtime" = 1 ]; then
  for path in "${host_libraries[@]}"; do cp -L "$path" "$out/p1/cli/lib/$(basename "$path")"; done
  cp -L "$loader" "$out/p1/cli/lib/ld-linux-x86-64.so.2"
fi
# The newest symbol version of each kind the CLI and its packed libraries ask for.
newest() {
  objdump -T "$out/p1/cli/libexec/warp-compile-probe" "$out"/p1/cli/lib/*.so* 2>/dev/null |
    grep -o "\b$1_[0-9][0-9.]*" | sort -uV | tail -1
}
{
  echo "GLIBC $(newest GLIBC | sed 's/^GLIBC_//')"
  echo "GLIBCXX $(newest GLIBCXX | sed 's/^GLIBCXX_//')"
  echo "CXXABI $(newest CXXABI | sed 's/^CXXABI_//')"
  echo "bundled_runtime $bundle_runtime"
} >"$out/p1/cli/requires.txt"
if [ "$bundle_runtime" = 1 ]; then
  loader_expr='"$here/lib/ld-linux-x86-64.so.2"'
else
  loader_expr="$loader"
fi
# The CLI passes its environment to every program it measures, so LD_LIBRARY_PATH would reach
# the measured Python (and its sqlite3, say) too: the loader's --library-path applies to the CLI
# process alone.
cat >"$out/p1/cli/warp-compile-probe" <<EOF
#!/bin/sh
# The pack's warp-compile-probe (ci/gpu/pack.sh): the loader finds the CLI's libraries in lib/,
# for this process only; the programs it runs see the environment as it was.
here="\$(dirname "\$(readlink -f "\$0")")"
exec $loader_expr --library-path "\$here/lib" "\$here/libexec/warp-compile-probe" "\$@"
EOF
cat >"$out/p1/cli/list-libraries.sh" <<EOF
#!/bin/sh
# Where the loader finds each library of the CLI, as the wrapper runs it (ldd's view).
here="\$(dirname "\$(readlink -f "\$0")")"
exec $loader_expr --library-path "\$here/lib" --list "\$here/libexec/warp-compile-probe"
EOF
chmod +x "$out/p1/cli/warp-compile-probe" "$out/p1/cli/list-libraries.sh"

# --- the tree the checks run from: what travels is what was packed ----------------------------
tree_paths=(ci/gpu fixtures harness/instrument/python tests/cuda_device.py tests/helpers/neutrality.py
            tests/helpers/launch_sequence.py tests/helpers/probe_tree.py tests/integration/probe_testlib.py tests/integration/gpu_catalogue.py
            tests/data/cuda-recorded/README.md docs/gpu-check.md)
# Tracked and untracked-not-ignored files (a source tree that is not a git checkout: every file).
list_files() {
  if git -C "$root" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$root" ls-files -co --exclude-standard -z -- "$@"
  else
    (cd "$root" && find "$@" -type f -not -path '*/__pycache__/*' -print0)
  fi
}
(cd "$root" && list_files "${tree_paths[@]}" |
  while IFS= read -r -d '' file; do if [ -f "$file" ]; then printf '%s\0' "$file"; fi; done |
  tar --null --no-recursion -cf - -T -) | tar -xf - -C "$out/p1/tree"
# The native launch counter the CLI embeds, where tests/helpers/probe_tree.py looks for it: the
# launch-cost check times the probe as measure injects it, not the Python fallback (2026-12-04:
# without it the check timed the Python counter).
native_counter="$root/build/harness/native/_fastlaunch.abi3.so"
if [ -f "$native_counter" ]; then
  mkdir -p "$out/p1/tree/build/harness/native"
  cp "$native_counter" "$out/p1/tree/build/harness/native/"
fi
commit="$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)"
dirty="$(git -C "$root" status --porcelain -- "${tree_paths[@]}" harness 2>/dev/null | head -1 || true)"

# --- Warp, compressed once per Warp version, level and script ----------------------------------
# What the archive holds and how: the cache key (with Warp's RECORD and the level).
excludes=(--exclude='warp/tests' --exclude='warp/examples' --exclude='__pycache__' --exclude='*.pyc')
tar_options=(--sort=name --owner=0 --group=0 --numeric-owner)
key="$( (cat "$site/$dist_info/RECORD"; echo "$codec $level ${excludes[*]} ${tar_options[*]} stream-1") |
        sha256sum | cut -c1-16)"
cache_dir="$root/.gpu-pack-cache"
suffix=$([ "$codec" = xz ] && echo xz || echo gz)
archive="$cache_dir/warp-$warp_version-$key.tar.$suffix"
if [ "$use_cache" = 0 ]; then archive="$out/warp.tar.$suffix"; fi
compress_started=$(date +%s)
if [ ! -f "$archive" ]; then
  mkdir -p "$(dirname "$archive")"
  if [ "$codec" = xz ]; then compress=(xz -T0 "-$level"); else compress=(gzip "-$level"); fi
  tar -C "$site" "${excludes[@]}" "${tar_options[@]}" -cf - warp "$dist_info" | "${compress[@]}" >"$archive.tmp"
  mv "$archive.tmp" "$archive"
  compressed_now=1
else
  compressed_now=0
fi
compress_seconds=$(( $(date +%s) - compress_started ))
uncompressed="$(tar -C "$site" "${excludes[@]}" "${tar_options[@]}" -cf - warp "$dist_info" | wc -c)"

# --- parts: each call carries at most 64 MiB with the working tree; p1 also holds cli/ and tree/ --
"$python" - "$root" "$out" "$archive" "$call_mib" "$room_mib" "$suffix" <<'EOF'
import hashlib, json, os, subprocess, sys
root, out, archive, call_mib, room_mib, suffix = sys.argv[1:4] + [int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]]
MiB = 1 << 20
def tree_bytes(folder):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)
# What travels with every call anyway: tracked and untracked-not-ignored files, and shared/.
try:
    listed = [p.decode() for p in subprocess.run(["git", "-C", root, "ls-files", "-co", "--exclude-standard", "-z"],
                                                 capture_output=True, check=True).stdout.split(b"\0") if p]
except (OSError, subprocess.CalledProcessError):  # not a git checkout: every file but builds, venvs, packs
    skip = ("build", ".venv", ".gpu-pack", ".git")
    listed = [os.path.relpath(os.path.join(d, f), root) for d, dirs, fs in os.walk(root)
              for f in fs if not any(part.startswith(skip) for part in os.path.relpath(d, root).split(os.sep))]
working_tree = sum(os.path.getsize(os.path.join(root, p)) for p in listed if os.path.isfile(os.path.join(root, p)))
if os.path.isdir(os.path.join(root, "shared")):
    working_tree += tree_bytes(os.path.join(root, "shared"))
budget = call_mib * MiB - working_tree - room_mib * MiB
p1_extra = tree_bytes(os.path.join(out, "p1"))  # cli/ and tree/
first_budget = budget - p1_extra
if first_budget < 8 * MiB:
    sys.exit(f"pack.sh: only {first_budget / MiB:.1f} MiB left for Warp in the first call")
parts, index = [], 0
with open(archive, "rb") as source:
    while True:
        chunk = source.read(first_budget if index == 0 else budget)
        if not chunk:
            break
        index += 1
        folder = os.path.join(out, f"p{index}")
        os.makedirs(folder, exist_ok=True)
        name = f"warp.tar.{suffix}.{index:02d}"
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(chunk)
        parts.append({"path": f"p{index}/{name}", "bytes": len(chunk), "sha256": hashlib.sha256(chunk).hexdigest()})
with open(os.path.join(out, "sizes.json"), "w") as handle:
    json.dump({"working_tree_bytes": working_tree, "budget_bytes": budget, "parts": parts,
               "p1_extra_bytes": p1_extra}, handle)
EOF
"$python" - "$out" "$commit" "${dirty:+dirty}" "$warp_version" "$wheel_tag" "$native_libraries" "$codec -$level" \
  "$uncompressed" "$compress_seconds" "$compressed_now" "$started" <<'EOF'
import json, os, sys, time
out, commit, dirty, version, tag, native, compression, raw, seconds, fresh, started = sys.argv[1:12]
sizes = json.load(open(os.path.join(out, "sizes.json")))
os.remove(os.path.join(out, "sizes.json"))
requires = dict(line.split(None, 1) for line in open(os.path.join(out, "p1", "cli", "requires.txt")).read().splitlines())
libraries = sorted(os.listdir(os.path.join(out, "p1", "cli", "lib")))
manifest = {"commit": commit, "dirty": bool(dirty), "packed_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "warp_version": version, "wheel_tag": tag, "warp_native_libraries": native.split(),
            "compression": compression, "warp_uncompressed_bytes": int(raw), "parts": sizes["parts"],
            "cli_requires": requires, "cli_libraries": libraries, "working_tree_bytes": sizes["working_tree_bytes"],
            "call_budget_bytes": sizes["budget_bytes"], "calls": len(sizes["parts"])}
with open(os.path.join(out, "p1", "MANIFEST.json"), "w") as handle:
    json.dump(manifest, handle, indent=1)
MiB = 1 << 20
total = sum(p["bytes"] for p in sizes["parts"])
print(f"pack: {out} (commit {commit[:10]}{' + uncommitted changes' if dirty else ''})")
print(f"  Warp {version} ({tag}), {int(raw) / MiB:.1f} MiB uncompressed -> {total / MiB:.1f} MiB {compression}"
      f" ({'compressed in ' + seconds + ' s' if fresh == '1' else 'from the cache'})")
for index, part in enumerate(sizes["parts"], start=1):
    extra = f" + cli/ and tree/ {sizes['p1_extra_bytes'] / MiB:.1f} MiB" if index == 1 else ""
    print(f"  call {index}: carry .gpu-pack/p{index}: {part['path']} {part['bytes'] / MiB:.1f} MiB{extra}")
print(f"  working tree that travels with every call: {sizes['working_tree_bytes'] / MiB:.1f} MiB; "
      f"room left per call: >= {(64 * MiB - sizes['working_tree_bytes'] - sizes['budget_bytes']) / MiB:.0f} MiB")
print(f"  CLI needs GLIBC {requires['GLIBC']}, GLIBCXX {requires['GLIBCXX']}, CXXABI {requires['CXXABI']}; "
      f"packed libraries: {', '.join(libraries)}")
print(f"  device calls: {len(sizes['parts'])} (one per part; the last one runs the checks)")
print(f"  pack took {int(time.time()) - int(started)} s")
EOF
