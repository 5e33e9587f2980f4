#include "cli/option_table.h"

#include <type_traits>

namespace wcp::cli {
namespace {

CLI::Option* add_target(CLI::App& command, const OptionRow& row) {
  const std::string name(row.name);
  const std::string help(row.help);
  return std::visit(
      [&](auto* target) -> CLI::Option* {
        if constexpr (std::is_same_v<decltype(target), bool*>) {
          return command.add_flag(name, *target, help);
        } else {
          return command.add_option(name, *target, help);
        }
      },
      row.target);
}

}  // namespace

void add_options(CLI::App& command, std::initializer_list<OptionRow> rows) {
  for (const OptionRow& row : rows) {
    CLI::Option* option = add_target(command, row);
    const OptionRules& rules = row.rules;
    if (rules.required) option->required();
    if (rules.show_default) option->capture_default_str();
    if (rules.every_value) option->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    if (rules.delimiter != '\0') option->delimiter(rules.delimiter);
    if (rules.check) option->check(*rules.check);
    if (!rules.needs.empty()) option->needs(std::string(rules.needs));
    if (!rules.excludes.empty()) option->excludes(std::string(rules.excludes));
  }
}

}  // namespace wcp::cli
