#include "bisect/scratch_worktree.h"

#include "bisect/git.h"
#include "errors.h"

namespace wcp::bisect {

ScratchWorktree::ScratchWorktree(std::filesystem::path repository, std::filesystem::path path,
                                 const std::string& commit)
    : repository_(std::move(repository)), path_(std::move(path)) {
  const auto added = run_git(repository_, {"worktree", "add", "--detach", path_.string(), commit});
  if (!added.ok()) throw RunError("git worktree add " + path_.string() + " failed: " + added.error_line());
}

ScratchWorktree::~ScratchWorktree() {
  // Never throws: this also runs while an exception (an interrupt) unwinds. prune also clears
  // the registration when the directory is already gone.
  try {
    run_git(repository_, {"worktree", "remove", "--force", path_.string()});
    run_git(repository_, {"worktree", "prune"});
  } catch (...) {
  }
}

}  // namespace wcp::bisect
