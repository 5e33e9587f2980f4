#include "bisect/bisect_setup.h"

#include <fmt/format.h>

#include <optional>

#include "bisect/git.h"
#include "errors.h"

namespace wcp::bisect {
namespace {

namespace fs = std::filesystem;

std::string resolve_commit(const fs::path& top, const std::string& spec, const char* what) {
  const auto resolved = run_git(top, {"rev-parse", "--verify", "--quiet", spec + "^{commit}"});
  if (!resolved.ok()) throw UsageError(fmt::format("{} '{}' is not a commit in {}", what, spec, top.string()));
  return resolved.first_line();
}

fs::path repository_relative(const fs::path& top, const std::string& budget) {
  const auto inside = [&top](const fs::path& path) -> std::optional<fs::path> {
    const auto relative = fs::weakly_canonical(fs::absolute(path)).lexically_relative(top);
    if (relative.empty() || *relative.begin() == ".." || relative == ".") return std::nullopt;
    return relative;
  };
  if (const auto relative = inside(budget)) return *relative;
  if (fs::path(budget).is_relative()) {
    if (const auto relative = inside(top / budget); relative && fs::exists(top / budget)) return *relative;
  }
  throw UsageError(fmt::format("{} is outside the repository {}: the budget file must be part of the history bisected",
                               budget, top.string()));
}

}  // namespace

BisectSetup validate_bisect_setup(const std::string& repo, const std::string& good, const std::string& bad,
                                  const std::string& budget_file) {
  BisectSetup setup;
  const auto top = run_git(repo, {"rev-parse", "--show-toplevel"});
  if (!top.ok()) throw UsageError(fmt::format("{} is not inside a git repository ({})", repo, top.error_line()));
  setup.top = fs::weakly_canonical(top.first_line());
  setup.budget = repository_relative(setup.top, budget_file);
  setup.good = resolve_commit(setup.top, good, "GOOD");
  setup.bad = resolve_commit(setup.top, bad, "BAD");
  if (setup.good == setup.bad) throw UsageError("GOOD and BAD are the same commit " + setup.good);
  if (!run_git(setup.top, {"merge-base", "--is-ancestor", setup.good, setup.bad}).ok()) {
    throw UsageError(fmt::format("GOOD {} is not an ancestor of BAD {}", good, bad));
  }
  if (!run_git(setup.top, {"cat-file", "-e", setup.bad + ":" + setup.budget.generic_string()}).ok()) {
    throw UsageError(fmt::format("{} does not exist at BAD {}", setup.budget.generic_string(), bad));
  }
  return setup;
}

}  // namespace wcp::bisect
