#include "render/option_receipts_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>

namespace wcp::render {
namespace {

// Long receipt lists (a global reaching every module) name the first few.
constexpr std::size_t kBuildsShown = 6;

}  // namespace

std::string_view outcome_label(ReceiptOutcome outcome) {
  switch (outcome) {
    case ReceiptOutcome::reached:
      return "reached";
    case ReceiptOutcome::partly_reached:
      return "partly";
    case ReceiptOutcome::reached_nothing:
      return "NEVER ARRIVED";
    case ReceiptOutcome::target_not_built:
      return "not built";
    case ReceiptOutcome::no_change:
      return "no change";
    case ReceiptOutcome::not_a_module_option:
      return "no module";
  }
  return "";
}

namespace {

std::string site(const OptionWrite& write) {
  return write.site ? short_location(*write.site) : "?";
}

std::string build(const ModuleIdentity& identity) {
  return identity.name + " " + identity.hash;
}

std::string reached_text(const std::vector<ReachedBuild>& reached) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < reached.size() && i < kBuildsShown; ++i) {
    names.push_back(build(reached[i].identity) + (reached[i].rebuild ? " (a rebuild: CS-3)" : ""));
  }
  std::string text = fmt::format("{}", fmt::join(names, ", "));
  if (reached.size() > kBuildsShown) text += fmt::format(" and {} more", reached.size() - kBuildsShown);
  return text;
}

}  // namespace

std::string miss_text(const OptionWrite& write, const MissedModule& miss) {
  const std::string module = miss.build ? build(*miss.build) : miss.module;
  std::string text;
  switch (miss.reason) {
    case MissReason::target_never_loaded:
      text = miss.registered_kernels > 0
                 ? fmt::format("{} was not built in this run; its {} kernel(s) ({}{}) take the option when it is",
                               miss.module, miss.registered_kernels, fmt::join(miss.kernels, ", "),
                               miss.registered_kernels > static_cast<int>(miss.kernels.size())
                                   ? fmt::format(" and {} more", miss.registered_kernels - miss.kernels.size())
                                   : "")
                 : fmt::format("nothing of {} was built in this run", miss.module);
      break;
    case MissReason::kernels_in_unique_modules:
      text = fmt::format("{} never loaded; its kernels were built in module=\"unique\" modules {}", miss.module,
                         fmt::join(miss.elsewhere, ", "));
      break;
    case MissReason::kernels_in_named_modules:
      text = fmt::format("{} never loaded; its kernels were built in {}", miss.module, fmt::join(miss.elsewhere, ", "));
      break;
    case MissReason::set_after_last_load:
      text = fmt::format("set after the last build of {}", module);
      break;
    case MissReason::set_after_module_created:
      text = fmt::format("{} was created before it and holds {} = {}", module, write.key, miss.held);
      break;
    case MissReason::module_holds_own_value:
      text = fmt::format("{} holds its own {} = {}", module, write.key, miss.held);
      break;
    case MissReason::overridden:
      text = fmt::format("overridden by {} at {}", miss.by ? spelled(*miss.by) : "a later write",
                         miss.by ? site(*miss.by) : "?");
      break;
    case MissReason::no_build_after:
      text = "no module was built after it";
      break;
    case MissReason::value_differs:
      text = fmt::format("{} was built with {} = {}", module, write.key, miss.held);
      break;
  }
  if (miss.dependency) text += " (a dependency's module, not the application's)";
  return text;
}

namespace {

void render_receipt(const OptionReceipt& receipt, std::ostream& out) {
  const OptionWrite& write = receipt.write;
  std::string result;
  if (!receipt.reached.empty()) result = " -> " + reached_text(receipt.reached);
  std::vector<std::string> misses;
  for (const auto& miss : receipt.missed) misses.push_back(miss_text(write, miss));
  if (receipt.outcome == ReceiptOutcome::no_change && !receipt.missed.empty()) {
    misses = {fmt::format("set after the last build of {}, which already held it", receipt.missed.front().module)};
  }
  if (!misses.empty()) {
    result += fmt::format("{}{}", result.empty() ? ": " : "; missed: ", fmt::join(misses, "; "));
  }
  out << fmt::format("  {:<14} {} ({}{}){}{}\n", outcome_label(receipt.outcome), spelled(write), site(write),
                     receipt.repeats > 1 ? fmt::format(", {} times", receipt.repeats) : "", result,
                     receipt.finding ? fmt::format("  [{}]", code(*receipt.finding)) : "");
}

}  // namespace

void render_option_receipts_text(const std::vector<OptionReceipt>& receipts, std::ostream& out) {
  std::vector<const OptionReceipt*> application, not_module;
  std::vector<std::string> by_warp;
  for (const auto& receipt : receipts) {
    if (receipt.write.by_warp) {
      const auto& write = receipt.write;
      std::string text = write.api == OptionApi::config
                             ? fmt::format("wp.config.{}", write.key)
                             : fmt::format("{} on {} ({})", write.key, write.target, outcome_label(receipt.outcome));
      if (std::find(by_warp.begin(), by_warp.end(), text) == by_warp.end()) by_warp.push_back(std::move(text));
    } else if (receipt.outcome == ReceiptOutcome::not_a_module_option) {
      not_module.push_back(&receipt);
    } else {
      application.push_back(&receipt);
    }
  }
  if (application.empty()) return;  // quiet: nothing the application set reaches a module
  out << "\nOption receipts (each option the program set, and the module builds that carry it)\n";
  for (const OptionReceipt* receipt : application) render_receipt(*receipt, out);
  if (!not_module.empty()) {
    std::vector<std::string> names;
    for (const OptionReceipt* receipt : not_module)
      names.push_back(fmt::format("{} ({})", spelled(receipt->write), site(receipt->write)));
    out << fmt::format("  not read by module builds: {}\n", fmt::join(names, ", "));
  }
  if (!by_warp.empty())
    out << fmt::format("  Warp's own writes (context, not the application's): {}\n", fmt::join(by_warp, "; "));
}

}  // namespace wcp::render
