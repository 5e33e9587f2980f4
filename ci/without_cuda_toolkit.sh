#!/usr/bin/env bash
# Runs a command as on a machine without a CUDA toolkit, to test the nvidia-cuda-nvrtc wheel
# path (docs/calibration.md): in a private mount namespace an empty folder hides /usr/local/cuda,
# and /dev/null hides every other libnvrtc the loader, $CUDA_HOME or $CUDA_PATH would find. The
# mounts vanish with the command; nothing outside it changes. Needs root (unshare -m).
#   bash ci/without_cuda_toolkit.sh ctest --test-dir build -R 'Calibrate|NvrtcSearch'
set -euo pipefail
[ "$#" -ge 1 ] || { echo "usage: $0 COMMAND [ARGS...]" >&2; exit 2; }
exec unshare --mount --propagation private bash -c '
  set -euo pipefail
  if [ -e /usr/local/cuda ]; then
    empty="$(mktemp -d)"
    mount --bind "$empty" "$(readlink -f /usr/local/cuda)"
  fi
  cache="$(ldconfig -p 2>/dev/null || true)"
  libraries="$(sed -n "s/.*libnvrtc.* => //p" <<<"$cache")"
  for root in "${CUDA_HOME:-}" "${CUDA_PATH:-}"; do
    [ -n "$root" ] && libraries+=$'\''\n'\''"$(ls -d "$root"/lib64/libnvrtc* "$root"/lib/libnvrtc* 2>/dev/null || true)"
  done
  while read -r library; do
    [ -n "$library" ] && [ -e "$library" ] && mount --bind /dev/null "$(readlink -f "$library")"
  done <<<"$libraries"
  exec "$@"
' without_cuda_toolkit "$@"
