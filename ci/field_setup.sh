#!/usr/bin/env bash
# The field corpus's venv (tests/field, docs/field.md): .venv-field with the pinned Warp-based
# packages of ci/requirements-field.txt (warp-lang, mujoco-warp, newton and what they need;
# about 700 MB installed; 34 to 43 s from PyPI on the development machine).
# Idempotent: prints one `setup: …` line when it installs something, nothing otherwise.
# ci/test.sh and ci/field.sh call it after ci/setup.sh; it needs python3-venv (ci/setup.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source "$root/ci/venv.sh"
ensure_venv .venv-field ci/requirements-field.txt
