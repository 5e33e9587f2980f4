#pragma once
// A command's own options as one table: each row names an option (or a positional), the
// argument it fills, its help and its rules, so that every command declares its options the same
// way and reads as data. The options several commands share stay in common_options.h.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace wcp::cli {

// What a row fills: a bool is a flag; every other target takes a value (a vector, one per value).
using OptionTarget = std::variant<bool*, int*, std::size_t*, double*, std::string*, std::vector<std::string>*>;

// How a row's value is checked and shown. (`{}` on each member: GCC warns of a member a
// designated initializer leaves out otherwise.)
struct OptionRules {
  bool required = false;
  bool show_default = false;  // the help shows the target's value before parsing
  bool every_value = false;   // a repeated option keeps every value, not the last
  char delimiter = '\0';      // '\0': one value per occurrence
  std::optional<CLI::Validator> check{};
  std::string_view needs{};     // an option added before this row that this one needs
  std::string_view excludes{};  // an option added before this row that cannot be given with this one
};

struct OptionRow {
  std::string_view name;  // "--only", or a positional's name ("budget_file")
  OptionTarget target;
  std::string_view help;
  OptionRules rules{};
};

// Adds each row to `command`, in order.
void add_options(CLI::App& command, std::initializer_list<OptionRow> rows);

}  // namespace wcp::cli
