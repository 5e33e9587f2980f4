#include "measure/relocated_copy.h"

#include <fmt/format.h>

#include <system_error>

#include "io/units.h"

namespace wcp::measure {
namespace fs = std::filesystem;

bool inside(const fs::path& path, const fs::path& directory) {
  const auto normal_path = path.lexically_normal();
  const auto normal_dir = directory.lexically_normal();
  auto dir_it = normal_dir.begin();
  auto path_it = normal_path.begin();
  for (; dir_it != normal_dir.end(); ++dir_it, ++path_it) {
    if (dir_it->empty()) continue;  // a trailing separator
    if (path_it == normal_path.end() || *path_it != *dir_it) return false;
  }
  return true;
}

RelocatedCopy copy_working_directory(const fs::path& cwd) {
  RelocatedCopy copy;
  const fs::path temp = system_temp_dir();
  if (inside(temp, cwd)) {
    copy.skipped = fmt::format(
        "the temporary directory {} lies inside the working directory, so the copy would "
        "contain itself",
        temp.string());
    return copy;
  }
  // Measure first: a working directory that is a home folder or a whole monorepo is not copied.
  std::uint64_t files = 0;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(cwd, fs::directory_options::skip_permission_denied, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    std::error_code entry_error;
    if (it->is_symlink(entry_error)) continue;  // copied as a link, not followed
    if (!it->is_regular_file(entry_error)) continue;
    copy.bytes += it->file_size(entry_error);
    if (++files > kRelocationFileLimit || copy.bytes > kRelocationByteLimit) {
      copy.skipped = fmt::format("the working directory holds more than {} files or {} (the copy's limit)",
                                 kRelocationFileLimit, bytes_text(kRelocationByteLimit));
      return copy;
    }
  }
  if (error) {
    copy.skipped = "the working directory could not be read: " + error.message();
    return copy;
  }
  copy.scratch = std::make_unique<ScratchDir>("warp-compile-probe-relocated-");
  // Another name as well as another parent, so a value taken from the folder's name moves too.
  copy.root = copy.scratch->path() / ("relocated-" + cwd.filename().string());
  fs::copy(cwd, copy.root, fs::copy_options::recursive | fs::copy_options::copy_symlinks, error);
  if (error) {
    copy.skipped = "the working directory could not be copied: " + error.message();
    copy.root.clear();
  }
  return copy;
}

std::vector<std::string> relocate_arguments(const std::vector<std::string>& command, const fs::path& from,
                                            const fs::path& to) {
  std::vector<std::string> relocated;
  for (const auto& argument : command) {
    const fs::path path(argument);
    if (path.is_absolute() && inside(path, from)) {
      relocated.push_back((to / path.lexically_normal().lexically_relative(from.lexically_normal())).string());
    } else {
      relocated.push_back(argument);
    }
  }
  return relocated;
}

}  // namespace wcp::measure
