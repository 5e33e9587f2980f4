// config-deadline: a warp.config option a module copies when it is created (enable_backward,
// max_unroll, lineinfo, deterministic, deterministic_max_records, compile_time_trace) was
// changed after the module existed, so the module never saw it. The instrumentation records
// the global value at load and the module's copy; they differ exactly when the setting came
// too late. (default_grid_stride is read at launch, so it is not on the list.)
#include <fmt/format.h>

#include <array>
#include <map>
#include <set>
#include <string_view>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {

struct CopiedOption {
  std::string_view key;
  std::string_view warp_default;  // repr of Warp's default (Warp 1.x)
};

// A module whose copy differs from the global is also what wp.set_module_options() produces on
// purpose. That call sets the *module* value away from the default; a late config write leaves
// the module at the default while the global moved. So: global not default, module unchanged.
constexpr std::array<CopiedOption, 6> kCopiedOptions{{
    {"enable_backward", "True"},
    {"max_unroll", "16"},
    {"lineinfo", "False"},
    {"deterministic", ""},  // an enum whose repr varies by version: judged on mismatch alone
    {"deterministic_max_records", "0"},
    {"compile_time_trace", "False"},
}};

}  // namespace

void check_config_deadline(const Report& report, Diagnosis& out) {
  Finding finding = make_finding(Mechanism::config_deadline);
  std::set<std::string> seen;
  bool any_detail = false;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->detail) continue;
    any_detail = true;
    const auto& detail = *event->detail;
    for (const auto& option : kCopiedOptions) {
      const auto global = detail.config_at_load.find(std::string(option.key));
      const auto copy = detail.options.find(std::string(option.key));
      if (global == detail.config_at_load.end() || copy == detail.options.end()) continue;
      if (global->second == copy->second) continue;
      if (!option.warp_default.empty() && global->second == option.warp_default) continue;  // module-level choice
      const std::string key = event->name + "/" + std::string(option.key);
      if (!seen.insert(key).second) continue;
      finding.module = finding.module.empty() ? event->name : finding.module;
      finding.evidence.push_back(fmt::format(
          "module {} ({}): warp.config.{} = {} at load, but the module holds {} (copied when the module was "
          "created, before the setting)",
          event->name, event->hash, option.key, global->second, copy->second));
      if (option.key == "enable_backward") {
        if (const ModuleSource* source = source_of(report, event->name, event->hash);
            source && source->backward_kernels > 0) {
          finding.evidence.push_back(
              fmt::format("module {}: {} backward entry point(s) still generated ({} bytes of source)", event->name,
                          source->backward_kernels, source->source_bytes));
        }
      }
    }
  }
  if (!finding.evidence.empty()) {
    finding.cost_basis = "not computable from one run: the build the setting was meant to avoid did happen";
    out.findings.push_back(std::move(finding));
  } else if (!any_detail) {
    not_checked(out, Mechanism::config_deadline, "no per-load snapshots (instrumentation did not attach)");
  } else {
    rule_out(out, Mechanism::config_deadline, "every module's copied options match warp.config at load");
  }
}

}  // namespace wcp::analysis
