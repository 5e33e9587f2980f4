#include "history/git_commit.h"

#include "history/capture.h"

namespace wcp::history {

std::optional<Commit> commit_of(const std::filesystem::path& directory, InterruptWatch& interrupts) {
  const auto sha =
      capture_output({"git", "-C", directory.string(), "rev-parse", "--verify", "-q", "HEAD"}, directory, interrupts);
  if (!sha || sha->size() < 40) return std::nullopt;
  // Untracked files are left out: build folders and caches would make every checkout dirty.
  const auto status = capture_output({"git", "-C", directory.string(), "status", "--porcelain", "--untracked-files=no"},
                                     directory, interrupts);
  return Commit{sha->substr(0, 40), status && !status->empty()};
}

}  // namespace wcp::history
