#include "budget/budget_result.h"

#include <algorithm>

namespace wcp::budget {

bool CommandResult::failed() const {
  if (not_run) return false;
  if (run_failure) return true;
  return std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.verdict == Verdict::fail; });
}

bool CommandResult::improved() const {
  return std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.verdict == Verdict::improved; });
}

bool CheckResult::failed() const {
  return std::any_of(commands.begin(), commands.end(), [](const auto& c) { return c.failed(); });
}

bool CheckResult::all_not_run() const {
  return !commands.empty() &&
         std::all_of(commands.begin(), commands.end(), [](const auto& c) { return c.not_run.has_value(); });
}

std::string to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::pass: return "PASS";
    case Verdict::fail: return "FAIL";
    case Verdict::improved: return "PASS (improved)";
    case Verdict::accepted: return "ACCEPTED";
    case Verdict::not_judged:
      return "NOT JUDGED";
  }
  return "";
}

}  // namespace wcp::budget
