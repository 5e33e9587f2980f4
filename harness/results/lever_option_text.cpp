#include "results/lever_option_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace wcp::results {
namespace {

// JSON's literals as Python spells them; numbers and strings read the same in both.
std::string lever_python_literal(const std::string& value_json) {
  if (value_json == "true") return "True";
  if (value_json == "false") return "False";
  if (value_json == "null") return "None";
  return value_json;
}

// The target modules, a few by name ("every module" for "*").
std::string lever_modules_text(const std::vector<std::string>& modules) {
  if (modules.empty()) return "no module";
  if (modules.size() == 1 && modules.front() == "*") return "every module";
  constexpr std::size_t kNamed = 3;
  if (modules.size() <= kNamed) return fmt::format("{}", fmt::join(modules, ", "));
  return fmt::format("{} and {} more", fmt::join(modules.begin(), modules.begin() + kNamed, ", "),
                     modules.size() - kNamed);
}

std::string lever_kernels_text(const std::vector<KernelRef>& kernels) {
  std::vector<std::string> names;
  for (const auto& kernel : kernels) names.push_back(kernel.qualname);
  return fmt::format("{} kernel{}{}", kernels.size(), kernels.size() == 1 ? "" : "s",
                     names.empty() ? "" : fmt::format(" ({})", lever_modules_text(names)));
}

}  // namespace

std::string lever_option_text(const Lever& lever) {
  switch (lever.kind) {
    case LeverKind::config:
      return fmt::format("wp.config.{} = {}", lever.name, lever_python_literal(lever.value_json));
    case LeverKind::module_option:
      return fmt::format("module option {} = {} on {}", lever.name, lever_python_literal(lever.value_json),
                         lever_modules_text(lever.modules));
    case LeverKind::drop_unique:
      return fmt::format("module=\"unique\" dropped on {}", lever_kernels_text(lever.kernels));
    case LeverKind::noop_call:
      return fmt::format("wp.{}() made a no-op", lever.name);
  }
  return lever.id;
}

}  // namespace wcp::results
