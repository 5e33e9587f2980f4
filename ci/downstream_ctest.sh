# Sourced by ci/downstream_check.sh and ci/wheel_check.sh: runs examples/downstream's
# `ctest -L compile-budget` in an already configured build folder and checks its JUnit report.
# run_downstream_ctest BUILD_DIR JUNIT: both budget entries must be registered, and `simulate`
# must have run and passed (simulate-cuda may be skipped on a machine without CUDA).
run_downstream_ctest() {
  local build="$1" junit="$2" test
  ctest --test-dir "$build" -L compile-budget --no-tests=error --output-on-failure --output-junit "$junit"
  for test in compile-budget/compile_budgets/simulate compile-budget/compile_budgets/simulate-cuda; do
    grep -q "name=\"$test\"" "$junit" || { echo "missing test $test in JUnit" >&2; return 1; }
  done
  if grep -A3 'name="compile-budget/compile_budgets/simulate"' "$junit" | grep -q '<failure'; then
    echo "compile-budget/compile_budgets/simulate failed" >&2
    return 1
  fi
}
