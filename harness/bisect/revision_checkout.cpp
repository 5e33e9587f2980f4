#include "bisect/revision_checkout.h"

#include "bisect/git.h"
#include "errors.h"

namespace wcp::bisect {
namespace fs = std::filesystem;

namespace {

// `path` relative to `top` when it lies inside it; nullopt otherwise.
std::optional<fs::path> inside_of(const fs::path& top, const fs::path& path) {
  const fs::path relative = path.lexically_normal().lexically_relative(top);
  if (relative.empty() || *relative.begin() == "..") return std::nullopt;
  return relative;
}

}  // namespace

RevisionCheckout::RevisionCheckout(const std::string& revision, const fs::path& inside) : revision_(revision) {
  const auto top = run_git(inside, {"rev-parse", "--show-toplevel"});
  if (!top.ok()) {
    throw UsageError("--against-rev " + revision + ": " + inside.string() + " is not in a git repository (" +
                     top.error_line() + ")");
  }
  top_ = fs::path(top.first_line()).lexically_normal();
  const auto commit = run_git(top_, {"rev-parse", "--verify", "--quiet", revision + "^{commit}"});
  if (!commit.ok() || commit.first_line().empty()) {
    throw UsageError("--against-rev " + revision + ": not a commit of " + top_.string() +
                     " (in CI, fetch enough history for the merge base: `git fetch --depth=50 origin main`)");
  }
  commit_ = commit.first_line();
  scratch_ = std::make_unique<ScratchDir>("warp-compile-probe-rev-");
  worktree_ = std::make_unique<ScratchWorktree>(top_, scratch_->path() / "worktree", commit_);
}

std::string RevisionCheckout::description() const {
  return revision_ + " (" + commit_.substr(0, 7) + ")";
}

measure::MeasureOptions RevisionCheckout::at_revision(measure::MeasureOptions options) const {
  const fs::path& tree = worktree_->path();
  const auto moved = [&](const std::string& text) -> std::string {
    const fs::path path(text);
    if (!path.is_absolute()) return text;
    const auto relative = inside_of(top_, path);
    if (!relative) return text;
    std::error_code ignored;
    const fs::path there = tree / *relative;
    return fs::exists(there, ignored) ? there.string() : text;
  };
  const fs::path working_cwd = options.cwd;
  if (const auto relative = inside_of(top_, options.cwd)) options.cwd = tree / *relative;
  for (auto& argument : options.command) argument = moved(argument);
  for (auto& [name, value] : options.extra_environment) value = moved(value);
  // A program named relative to the working directory (`.venv/bin/python`) that the revision
  // does not track runs from the working tree.
  if (!options.command.empty()) {
    const fs::path program(options.command.front());
    std::error_code ignored;
    if (program.is_relative() && program.has_parent_path() && !fs::exists(options.cwd / program, ignored) &&
        fs::exists(working_cwd / program, ignored)) {
      options.command.front() = (working_cwd / program).lexically_normal().string();
    }
  }
  return options;
}

}  // namespace wcp::bisect
