#pragma once
// `${NAME}` expansion in budget files, so a file in a repository can name machine-specific
// things (the interpreter above all) without hard-coding them:
//   ${NAME}          the variable's value; an error when unset, except WCP_PYTHON,
//                    which falls back to `python3` so a file works outside CI unchanged
//   ${NAME:-word}    the value, or `word` when NAME is unset or empty
//   $$               a literal `$`
// Expansion happens once, while loading, so errors carry the file's line number.
#include <string>
#include <string_view>

#include "io/environment.h"

namespace wcp::budget {

// Throws std::invalid_argument (message without location) on an unset variable or bad syntax.
std::string expand_variables(std::string_view text, const EnvironmentLookup& lookup);

}  // namespace wcp::budget
