#include "history/branch.h"

#include "history/capture.h"

namespace wcp::history {

std::string branch_of(const std::string& option, const EnvironmentLookup& environment,
                      const std::filesystem::path& directory, InterruptWatch& interrupts) {
  if (!option.empty()) return option;
  for (const char* variable : {"WCP_BRANCH", "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME"}) {
    if (auto value = environment(variable); value && !value->empty()) return *value;
  }
  auto name = capture_output({"git", "rev-parse", "--abbrev-ref", "HEAD"}, directory, interrupts);
  if (!name) return "";
  while (!name->empty() && (name->back() == '\n' || name->back() == '\r')) name->pop_back();
  // A detached checkout answers "HEAD": no branch.
  return *name == "HEAD" ? "" : *name;
}

}  // namespace wcp::history
