#pragma once
// A copy of the command's working directory at another path, for the hash experiment that asks
// whether a module's hash depends on where the checkout lives. Bounded (a size and a file-count
// limit) and refused where the copy would land inside what it copies; the original is only
// read. The copy is removed with its scratch directory.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "run/scratch_dir.h"

namespace wcp::measure {

inline constexpr std::uint64_t kRelocationByteLimit = 200ull * 1024 * 1024;
inline constexpr std::uint64_t kRelocationFileLimit = 50'000;

struct RelocatedCopy {
  std::unique_ptr<ScratchDir> scratch;  // owns the copy
  std::filesystem::path root;           // the copied working directory; empty when skipped
  std::uint64_t bytes = 0;
  std::string skipped;  // why no copy was made, in plain words
};

RelocatedCopy copy_working_directory(const std::filesystem::path& cwd);

// The command with every argument that names a path inside `from` pointed at `to` instead.
std::vector<std::string> relocate_arguments(const std::vector<std::string>& command, const std::filesystem::path& from,
                                            const std::filesystem::path& to);

// Whether `path` lies inside `directory` (lexically, both absolute).
bool inside(const std::filesystem::path& path, const std::filesystem::path& directory);

}  // namespace wcp::measure
