#include "budget/budget_result.h"

#include <algorithm>

#include "io/name_table.h"

namespace wcp::budget {

bool CommandResult::failed() const {
  if (not_run) return false;
  if (run_failure) return true;
  return std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.verdict == Verdict::fail; });
}

bool CommandResult::improved() const {
  return std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.verdict == Verdict::improved; });
}

bool CommandResult::not_judged() const {
  return !failed() &&
         std::any_of(outcomes.begin(), outcomes.end(), [](const auto& o) { return o.verdict == Verdict::not_judged; });
}

int CheckResult::not_judged() const {
  return static_cast<int>(
      std::count_if(commands.begin(), commands.end(), [](const auto& c) { return c.not_judged(); }));
}

bool CheckResult::failed() const {
  return std::any_of(commands.begin(), commands.end(), [](const auto& c) { return c.failed(); });
}

bool CheckResult::all_not_run() const {
  return !commands.empty() &&
         std::all_of(commands.begin(), commands.end(), [](const auto& c) { return c.not_run.has_value(); });
}

namespace {

constexpr NameTable<Verdict, 5> kVerdicts{{
    {Verdict::pass, "PASS"},
    {Verdict::fail, "FAIL"},
    {Verdict::improved, "PASS (improved)"},
    {Verdict::accepted, "ACCEPTED"},
    {Verdict::not_judged, "NOT JUDGED"},
}};

}  // namespace

std::string to_string(Verdict verdict) {
  return std::string(name_of(kVerdicts, verdict));
}

}  // namespace wcp::budget
