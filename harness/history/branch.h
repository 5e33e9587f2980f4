#pragma once
// The branch a result was measured on, so a pull request can be judged against main's recent
// runs (check --against-branch). CI checkouts are usually detached, so git alone rarely knows:
//   --branch NAME, then WCP_BRANCH, then the CI's own variable (GitHub Actions: GITHUB_HEAD_REF
//   for a pull request, else GITHUB_REF_NAME; GitLab: CI_COMMIT_REF_NAME), then
//   `git rev-parse --abbrev-ref HEAD` in the measured folder; "" when none says.
#include <filesystem>
#include <string>

#include "io/environment.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::history {

std::string branch_of(const std::string& option, const EnvironmentLookup& environment,
                      const std::filesystem::path& directory, InterruptWatch& interrupts);

}  // namespace wcp::history
