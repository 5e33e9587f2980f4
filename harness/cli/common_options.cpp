#include "cli/common_options.h"

#include <fmt/format.h>

#include <optional>

#include "reference/reference_python.h"

namespace wcp::cli {

void add_verbose_flag(CLI::App& command, bool& verbose, std::string_view what) {
  command.add_flag("--verbose", verbose, fmt::format("Print {} instead of one screen", what));
}

void add_history_option(CLI::App& command, std::string& path, std::string_view what) {
  command.add_option("--history", path,
                     fmt::format("Append {} to this history file (SQLite; default: $WCP_HISTORY when set)", what));
}

void add_reference_python_option(CLI::App& command, std::string& python, std::string_view whose) {
  command.add_option("--reference-python", python,
                     fmt::format("Interpreter with warp-lang for the Warp CPU reference (default: {} own interpreter "
                                 "when it starts with one, else $WCP_PYTHON, else python3)",
                                 whose));
}

std::string reference_python_of(const std::string& option, const std::vector<std::string>& command,
                                const std::filesystem::path& cwd) {
  return reference::reference_python_for(option.empty() ? std::nullopt : std::optional<std::string>(option), command,
                                         cwd);
}

}  // namespace wcp::cli
