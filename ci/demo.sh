#!/usr/bin/env bash
# The main job on a fresh machine: set up, then measure a bundled fixture app whose module is
# rebuilt because a kernel was defined after the module loaded, and print the report.
# Output: one `setup: …` line (setup's last, the build's; every step's line when setup fails,
# with the tail of build/setup.log on stderr), then the report's one screen (`--verbose` for all
# of it); no progress lines.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
status=0
setup_lines="$(bash "$root/ci/setup.sh")" || status=$?
if ((status)); then
  printf '%s\n' "$setup_lines"
  exit "$status"
fi
printf '%s\n' "$setup_lines" | tail -n 1
cd "$root"
exec build/harness/warp-compile-probe measure --quiet --samples 3 --label demo -- .venv/bin/python fixtures/late_kernel/app.py
