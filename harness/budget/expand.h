#pragma once
// `${NAME}` expansion in budget files, so a file in a repository can name machine-specific
// things (the interpreter above all) without hard-coding them:
//   ${NAME}          the variable's value; an error when unset, except WCP_PYTHON,
//                    which falls back to `python3` so a file works outside CI unchanged
//   ${NAME:-word}    the value, or `word` when NAME is unset or empty
//   $$               a literal `$`
// Expansion happens once, while loading, so errors carry the file's line number.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace wcp::budget {

using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// Reads the real process environment.
EnvironmentLookup process_environment();

// Throws std::invalid_argument (message without location) on an unset variable or bad syntax.
std::string expand_variables(std::string_view text, const EnvironmentLookup& lookup);

// Splits a command string like a POSIX shell would split words (single quotes, double quotes,
// backslash escapes) without running a shell: no globbing, pipes or substitutions.
// Throws std::invalid_argument on an unterminated quote.
std::vector<std::string> split_command_line(std::string_view text);

}  // namespace wcp::budget
