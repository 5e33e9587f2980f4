# Sourced by ci/setup.sh and ci/field_setup.sh: ensure_venv VENV REQUIREMENTS creates VENV if
# it is missing and installs REQUIREMENTS into it unless every pinned line is already installed.
# It prints one `setup: …` line when it has something to do, none otherwise.
# Each venv gets its pinned requirements exactly, and nothing is reinstalled when they already
# are (read pip freeze into a variable: under pipefail a `pip freeze | grep -q` pipeline fails
# when grep stops reading early).
ensure_venv() {
  local venv="$1" requirements="$2"
  local installed="" needs_create=0 needs_install=0
  if [ -x "$venv/bin/python" ]; then
    installed="$("$venv/bin/python" -m pip freeze 2>/dev/null || true)"
  else
    needs_create=1
  fi
  while read -r requirement; do
    [[ -z "$requirement" || "$requirement" == \#* ]] && continue
    grep -qxF "$requirement" <<<"$installed" || needs_install=1
  done < "$requirements"
  # One line for the step, before the work (a pip install can take minutes).
  if ((needs_create && needs_install)); then
    echo "setup: $venv: creating, installing $requirements"
  elif ((needs_create)); then
    echo "setup: $venv: creating"
  elif ((needs_install)); then
    echo "setup: $venv: installing $requirements"
  fi
  if ((needs_create)); then
    python3 -m venv "$venv"
  fi
  if ((needs_install)); then
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
  fi
}
