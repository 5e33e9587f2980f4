#pragma once
// The commit a measured directory is at: `git rev-parse HEAD`, and whether tracked files
// differ from it. Absent outside a git checkout (or without git).
#include <filesystem>
#include <optional>

#include "history/history_result.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::history {

std::optional<Commit> commit_of(const std::filesystem::path& directory, InterruptWatch& interrupts);

}  // namespace wcp::history
