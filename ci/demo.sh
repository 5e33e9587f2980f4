#!/usr/bin/env bash
# The main job on a fresh machine: set up, then measure a bundled fixture app whose module is
# rebuilt because a kernel was defined after the module loaded, and print the report.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/ci/setup.sh"
cd "$root"
exec build/harness/warp-compile-probe measure --samples 3 --label demo -- .venv/bin/python fixtures/late_kernel/app.py
