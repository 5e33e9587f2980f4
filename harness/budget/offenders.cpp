#include "budget/offenders.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <map>
#include <set>

#include "facts/queries.h"

namespace wcp::budget {
namespace {

// The test (or suite phase) running at the first cold build of `module`; "" when not recorded.
std::string first_builder(const std::string& module, const Report& report) {
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (event->name != module) continue;
    return event->detail && event->detail->test ? test_label(*event->detail->test) : "";
  }
  return "";
}

// The tests that built `module` again after its first build, when the loads carry tests.
std::vector<std::string> rebuild_tests(const std::string& module, const Report& report) {
  std::vector<std::string> tests;
  int seen = 0;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (event->name != module) continue;
    if (++seen < 2 || !event->detail || !event->detail->test) continue;
    const std::string label = test_label(*event->detail->test);
    if (std::find(tests.begin(), tests.end(), label) == tests.end()) tests.push_back(label);
  }
  return tests;
}

// Where the later builds of a module were triggered, when the instrumentation saw the stack.
std::vector<std::string> rebuild_triggers(const std::string& module, const Report& report) {
  std::vector<std::string> places;
  int seen = 0;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (event->name != module) continue;
    if (++seen < 2 || !event->detail || !event->detail->trigger) continue;
    const auto& trigger = *event->detail->trigger;
    const std::string place = fmt::format("{}:{}", trigger.file, trigger.line);
    if (std::find(places.begin(), places.end(), place) == places.end()) places.push_back(place);
  }
  return places;
}

std::string package_of(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

std::string rebuild_explanation(const RebuiltModule& module, const Report& report) {
  switch (module.cause) {
    case RebuildCause::identity_churn:
    case RebuildCause::both: {
      std::string text =
          "the module's content changed after it was first loaded (a kernel, module option or generic instance added "
          "late, or a closure created between launches)";
      const auto places = rebuild_triggers(module.name, report);
      if (!places.empty()) text += fmt::format("; rebuilt from {}", fmt::join(places, ", "));
      if (const auto tests = rebuild_tests(module.name, report); !tests.empty())
        text += fmt::format("; rebuilt by {}", fmt::join(tests, ", "));
      return text;
    }
    case RebuildCause::block_dim_spread:
      return "one module content compiled once per block_dim";
    case RebuildCause::same_identity:
      return "the same identity was built again: the kernel cache was cleared or bypassed between loads";
    case RebuildCause::several_processes:
      return "the same identity was built once in each of several processes that started before any had cached it";
  }
  return "";
}

}  // namespace

Offender rebuild_offender(const RebuiltModule& module, const Report& report) {
  std::string detail = fmt::format("{} builds, {:.2f} s", module.builds, module.total_ms / 1000.0);
  if (module.hashes.size() > 1) detail += fmt::format(", hashes {}", fmt::join(module.hashes, " "));
  if (module.block_dims.size() > 1) detail += fmt::format(", block_dims {}", fmt::join(module.block_dims, " "));
  Offender offender;
  offender.module = module.name;
  offender.detail = std::move(detail);
  offender.rebuild = module.cause;
  offender.test = first_builder(module.name, report);
  if (module.cause == RebuildCause::block_dim_spread) offender.mechanism = Mechanism::block_dim_spread;
  if (module.cause == RebuildCause::same_identity) offender.mechanism = Mechanism::cache_not_reused;
  if (module.cause == RebuildCause::several_processes) offender.mechanism = Mechanism::parallel_cold_misses;
  offender.explanation = rebuild_explanation(module, report);
  return offender;
}

std::vector<Offender> module_offenders(const Report& report) {
  std::map<std::string, std::pair<int, double>> by_name;  // builds, ms
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    auto& [builds, ms] = by_name[event->name];
    ++builds;
    ms += event->ms;
  }
  std::map<std::string, int> per_package;
  for (const auto& [name, stats] : by_name) {
    if (!package_of(name).empty()) ++per_package[package_of(name)];
  }
  std::vector<Offender> offenders;
  for (const auto& [name, stats] : by_name) {
    Offender offender;
    offender.module = name;
    offender.detail = fmt::format("{} build(s), {:.2f} s", stats.first, stats.second / 1000.0);
    offender.test = first_builder(name, report);
    if (unique_module_kernel(name)) {
      offender.mechanism = Mechanism::unique_modules;
      offender.explanation = "module=\"unique\" gives each kernel its own module, compiled separately";
    } else if (!package_of(name).empty() && per_package[package_of(name)] > 1) {
      offender.mechanism = Mechanism::granular_modules;
      offender.explanation = "one feature split over several Python modules, each compiled separately";
    }
    offenders.push_back(std::move(offender));
  }
  std::stable_sort(offenders.begin(), offenders.end(),
                   [&](const auto& a, const auto& b) { return by_name[a.module].second > by_name[b.module].second; });
  return offenders;
}

std::vector<Offender> slowest_offenders(const Report& report, std::size_t limit) {
  std::vector<Offender> offenders;
  for (const auto& identity : compiled_identities(report)) {
    if (offenders.size() >= limit) break;
    Offender offender;
    offender.module = identity.identity.name;
    offender.detail = fmt::format("{:.2f} s", identity.ms / 1000.0);
    if (!identity.identity.hash.empty()) offender.detail += ", hash " + identity.identity.hash;
    if (identity.built_pch)
      offender.explanation = "includes building the precompiled header (first build of the process)";
    offenders.push_back(std::move(offender));
  }
  return offenders;
}

std::vector<Offender> source_offenders(const Report& report, std::size_t limit) {
  auto modules = report.cache.modules;
  std::stable_sort(modules.begin(), modules.end(),
                   [](const auto& a, const auto& b) { return a.source_bytes > b.source_bytes; });
  std::vector<Offender> offenders;
  for (const auto& module : modules) {
    if (offenders.size() >= limit) break;
    Offender offender;
    offender.module = module.directory;
    offender.detail = fmt::format("{} bytes of generated source", module.source_bytes);
    if (module.backward_kernels > 0) {
      offender.mechanism = Mechanism::unused_backward;
      offender.explanation = fmt::format("backward (adjoint) code generated for {} kernel(s)", module.backward_kernels);
    }
    offenders.push_back(std::move(offender));
  }
  return offenders;
}

// Whether a finding can explain why this offender failed its budget: a rebuild is explained by
// a mechanism that rebuilds, a structural offender by its own mechanism; a module that is
// merely slow by anything found about it.
bool explains(const analysis::Finding& finding, const Offender& offender) {
  if (offender.rebuild) {
    switch (finding.mechanism) {
      case Mechanism::late_kernel:
      case Mechanism::late_option:
      case Mechanism::late_generic:
      case Mechanism::closure_churn:
      case Mechanism::changed_reference:
      case Mechanism::identity_churn:
      case Mechanism::block_dim_spread:
      case Mechanism::cache_not_reused:
      case Mechanism::parallel_cold_misses:
      case Mechanism::main_script_twice:
        return true;
      default:
        return false;
    }
  }
  if (offender.mechanism) return finding.mechanism == *offender.mechanism;
  return true;
}

void attach_findings(std::vector<Offender>& offenders, const analysis::Diagnosis& diagnosis) {
  for (auto& offender : offenders) {
    const auto match = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(), [&](const auto& finding) {
      // Structure findings name a package ("feature") for modules "feature.a", "feature.b".
      const bool about_module = !finding.module.empty() && (finding.module == offender.module ||
                                                            offender.module.starts_with(finding.module + "."));
      return about_module && explains(finding, offender);
    });
    if (match == diagnosis.findings.end()) continue;
    offender.mechanism = match->mechanism;
    offender.fix = match->fix;
  }
}

std::vector<Offender> warm_offenders(const Report& report) {
  std::vector<Offender> offenders;
  std::set<std::string> seen;
  for (const ModuleEvent* event : warm_compiled_events(report)) {
    if (!seen.insert(event->name).second) continue;
    Offender offender;
    offender.module = event->name;
    offender.detail = fmt::format("{:.2f} s on the warm run", event->ms / 1000.0);
    offender.mechanism = Mechanism::cache_not_reused;
    offender.explanation = "compiled again on a warm run: the kernel cache did not survive the process";
    const auto& status = report.instrumentation;
    if (status.app_kernel_cache_dir) {
      offender.explanation += " (the app points warp.config.kernel_cache_dir at " + *status.app_kernel_cache_dir + ")";
    } else if (!status.cache_clears.empty()) {
      offender.explanation += " (the app calls " + status.cache_clears.front().what + ")";
    } else if (status.cache_kernels_disabled) {
      offender.explanation += " (warp.config.cache_kernels is False)";
    }
    offenders.push_back(std::move(offender));
  }
  return offenders;
}

}  // namespace wcp::budget
