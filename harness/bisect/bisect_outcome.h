#pragma once
// What one commit of a bisection is, decided from what `check` wrote about it: good, bad, skip
// (cannot tell), or abort (the check itself could not work, so no later commit can either).
// Decided from check's JSON, not its exit code: exit 1 means both "a budget failed" (bad) and
// "every sample failed" (skip), which a bisection must tell apart.
#include <optional>
#include <string>
#include <string_view>

namespace wcp::bisect {

enum class StepOutcome { good, bad, skip, abort };

std::string_view to_string(StepOutcome outcome);
std::optional<StepOutcome> step_outcome_from(std::string_view word);

// The exit code `git bisect run` reads: 0 good, 1 bad, 125 skip, 128 abort (git stops the
// bisection on any code of 128 or more).
int git_exit_code(StepOutcome outcome);

struct StepDecision {
  StepOutcome outcome = StepOutcome::abort;
  std::string reason;  // one line
  // For abort: the code `bisect` exits with, check's own when it was 2, 3 or 77, else 3.
  int abort_exit_code = 0;
};

// `check_exit_code` is check's exit code; `check_json` the text of its --json file, absent when
// it wrote none.
//   exit 2, 3, 77 or a signal, or no readable JSON  -> abort
//   some budget outcome has verdict "fail"          -> bad
//   some command has run_failure                    -> skip (its budgets could not be evaluated)
//   otherwise                                       -> good
// A command that was not run (needs a device this machine lacks) says nothing about the commit
// and is ignored; when every command was not run, check exits 77 and the bisection aborts.
StepDecision decide_step(int check_exit_code, const std::optional<std::string>& check_json);

}  // namespace wcp::bisect
