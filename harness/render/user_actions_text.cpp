#include "render/user_actions_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <ostream>

#include "io/units.h"
#include "render/finding_text.h"
#include "render/report_text.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

// "Saves ≈ 338 ms in 3 module(s) of code you do not own (estimate for 2 of them)".
std::string saving_text(const analysis::EntryPointSetting& setting) {
  const std::string reach = fmt::format("{} module(s) of code you do not own", setting.modules.size());
  if (!setting.saving_ms) return "Saving not estimated for its " + reach;
  std::string text = fmt::format("Saves {}{} in {}", setting.saving_estimated ? "≈ " : "",
                                 whole_milliseconds_text(*setting.saving_ms), reach);
  if (setting.saving_estimated) {
    text += setting.modules_priced < setting.modules.size()
                ? fmt::format(" (estimate for {} of them)", setting.modules_priced)
                : std::string(" (estimate)");
  }
  return text;
}

}  // namespace

void render_entry_points_and_cache(const analysis::UserActions& actions, std::ostream& out, bool full) {
  for (const auto& setting : actions.settings) {
    print_wrapped(fmt::format("{} {}, {}; `{}` measures it.", fix_action_text(setting.advice), saving_text(setting),
                              setting.condition, format_command(actions.levers_command)),
                  "  - ", "      ", out);
    if (full) {
      print_wrapped(fmt::format("modules: {}", fmt::join(setting.modules, ", ")), "      ", "        ", out);
      print_wrapped("saving: " + setting.saving_basis, "      ", "        ", out);
    }
  }
  if (actions.keep_cache) {
    print_wrapped(fmt::format("Keep the kernel cache between runs (persist it in CI): cold {} → warm {} in this run.",
                              milliseconds_text(actions.keep_cache->cold_wall_ms),
                              milliseconds_text(actions.keep_cache->warm_wall_ms)),
                  "  - ", "      ", out);
  }
}

void render_package_lines(const analysis::UserActions& actions, std::ostream& out) {
  for (const auto& package : actions.packages) {
    print_wrapped(fmt::format("{}: {} finding{} for its maintainers; `diagnose` lists them", package.package,
                              package.findings, package.findings == 1 ? "" : "s"),
                  "    ", "      ", out);
  }
}

}  // namespace wcp::render
