#pragma once
// Command strings, read the way a POSIX shell splits words (single quotes, double quotes,
// backslash escapes) without running a shell: no globbing, pipes or substitutions.
#include <string>
#include <string_view>
#include <vector>

namespace wcp {

// Throws std::invalid_argument on an unterminated quote or a trailing backslash.
std::vector<std::string> split_command_line(std::string_view text);

}  // namespace wcp
