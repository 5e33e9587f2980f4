#!/usr/bin/env bash
# The field corpus (docs/field.md): every program of tests/field/expectations, measured and
# diagnosed, its findings asserted against the set reviewed by hand.
#   bash ci/field.sh            set up (ci/setup.sh, then .venv-field) and run the whole corpus
#                               (CTest labels `field` and `field-quick`), one program at a time
#   bash ci/field.sh -R mjw_    extra arguments go to ctest
# About 6 minutes of tests on the 2-core development machine (docs/field.md has the table).
# A test fails when the tool gives a finding judged false (listed with its reason in the
# program's expectation file), a finding nobody reviewed, or loses a true one; each failure
# prints the difference.
# Reports, diagnoses and scratch checkouts stay in build/tests/field-work/<program>/ for review;
# `python3 tests/field/run_field.py PROGRAM --update` proposes an updated expectation (never
# written over the reviewed one).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/ci/setup.sh"
bash "$root/ci/field_setup.sh"
cd "$root"
start=$SECONDS
status=0
ctest --test-dir build -L '^field(-quick)?$' --no-tests=error --output-on-failure --timeout 1800 "$@" || status=$?
echo "field: $(ls tests/field/expectations/*.json | grep -vc '\.proposed\.json$') program(s) in the corpus;" \
     "ctest exited $status after $((SECONDS - start)) s; work folder build/tests/field-work"
exit "$status"
