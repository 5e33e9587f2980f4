#pragma once
// Finding the program of a command the way a shell would, without running a shell.
#include <filesystem>
#include <map>
#include <string>

namespace wcp {

// argv[0] resolved against the PATH of `environment` (the target's, not the tool's), or
// relative to `cwd` when it contains a slash. Throws UsageError naming the command when it is
// missing or not an executable file.
std::filesystem::path resolve_executable(const std::string& program, const std::map<std::string, std::string>& environment,
                                         const std::filesystem::path& cwd);

}  // namespace wcp
