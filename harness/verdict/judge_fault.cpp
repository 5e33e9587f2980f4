#include "verdict/judge_fault.h"

#include <fmt/format.h>

#include <cctype>
#include <string>

#include "errors.h"

namespace wcp::verdict {

std::optional<Verdict> judge_fault(const EnvironmentLookup& environment) {
  const auto value = environment(kJudgeFaultVariable);
  if (!value || value->empty()) return std::nullopt;
  std::string names;
  for (Verdict verdict :
       {Verdict::invalid, Verdict::regression, Verdict::improved, Verdict::inconclusive, Verdict::unverified}) {
    std::string name(to_string(verdict));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (*value == name) return verdict;
    names += (names.empty() ? "" : ", ") + name;
  }
  throw UsageError(fmt::format("{}={} names no verdict (one of {}); it is a test-only switch: unset it",
                               kJudgeFaultVariable, *value, names));
}

}  // namespace wcp::verdict
