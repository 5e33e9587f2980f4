#include "measure/option_record.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace wcp::measure {
namespace {

// Hooks whose absence leaves the option record incomplete (the probe's `missing` wording):
// receipts built on a partial record could call a write unreached that only looks so.
constexpr std::array<std::string_view, 5> kOptionHooks{"module creation", "module option writes", "warp.config writes",
                                                       "per-kernel options", "option writes"};

}  // namespace

std::optional<OptionRecord> option_record_of(const PassRecord& pass) {
  const auto& events = pass.instrumentation;
  if (!events.attached()) return std::nullopt;
  for (const auto& process : events.processes) {
    for (const auto& what : process.missing) {
      for (const auto hook : kOptionHooks) {
        if (what.starts_with(hook)) return std::nullopt;
      }
    }
  }
  const double start = pass.run.started_monotonic_s;
  OptionRecord record;
  for (const auto& write : events.option_writes) {
    const auto api = option_api_from_string(write.api);
    const auto scope = option_scope_from_string(write.scope);
    if (!api || !scope) continue;  // a record of a newer probe: not guessed at
    record.writes.push_back({write.pid, std::max(0.0, write.t - start), *api, write.target, write.key, write.value,
                             write.site, write.kernel, *scope, write.by_warp});
  }
  for (const auto& created : events.modules_created) {
    record.modules_created.push_back({created.pid, std::max(0.0, created.t - start), created.name, created.config,
                                      created.options, created.site, created.entry_site});
  }
  record.modules_registered = events.registry;
  // Files are read one process after another; the receipts want one timeline.
  std::stable_sort(record.writes.begin(), record.writes.end(),
                   [](const OptionWrite& a, const OptionWrite& b) { return a.t_s < b.t_s; });
  std::stable_sort(record.modules_created.begin(), record.modules_created.end(),
                   [](const ModuleCreation& a, const ModuleCreation& b) { return a.t_s < b.t_s; });
  return record;
}

}  // namespace wcp::measure
