#include "io/executable.h"

#include <unistd.h>

#include <boost/algorithm/string/classification.hpp>
#include <boost/algorithm/string/split.hpp>
#include <boost/process/search_path.hpp>
#include <vector>

#include "errors.h"

namespace wcp {
namespace {

bool is_executable_file(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::filesystem::path resolve_executable(const std::string& program, const std::map<std::string, std::string>& environment,
                                         const std::filesystem::path& cwd) {
  if (program.empty()) throw UsageError("the command is empty");
  if (program.find('/') != std::string::npos) {
    std::filesystem::path path(program);
    if (path.is_relative()) path = cwd / path;
    if (!std::filesystem::exists(path)) throw UsageError("command not found: " + program);
    if (!is_executable_file(path)) throw UsageError("command is not an executable file: " + program);
    return path;
  }
  // The target's PATH, not ours: the command runs with the environment it is given.
  const auto path_variable = environment.find("PATH");
  const std::string search = path_variable == environment.end() ? "/usr/local/bin:/usr/bin:/bin" : path_variable->second;
  std::vector<std::string> entries;
  boost::split(entries, search, boost::is_any_of(":"));
  std::vector<boost::filesystem::path> directories;
  for (const auto& entry : entries) {
    const std::filesystem::path dir = entry.empty() ? cwd : std::filesystem::path(entry);
    directories.emplace_back((dir.is_relative() ? cwd / dir : dir).string());
  }
  const auto found = boost::process::search_path(program, directories);
  if (!found.empty() && is_executable_file(found.string())) return found.string();
  throw UsageError("command not found on PATH: " + program);
}

}  // namespace wcp
