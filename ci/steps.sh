# Sourced by ci/test.sh and ci/full.sh: `step NAME COMMAND...` runs one step of the run and then
# says, after the script's name ($step_prefix), how long it took and how long the run has taken,
# so a run that grows shows where.
steps_started=$(date +%s)
step() {
  local name="$1" step_started
  shift
  step_started=$(date +%s)
  "$@"
  echo "$step_prefix: $name took $(($(date +%s) - step_started)) s ($(($(date +%s) - steps_started)) s in all)" >&2
}
