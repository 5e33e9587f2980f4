#include "budget/offenders.h"

#include <algorithm>
#include <fmt/format.h>
#include <regex>
#include <set>

namespace wcp::budget {
namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

// Where the later builds of a module were triggered, when the instrumentation saw the stack.
std::string rebuild_triggers(const std::string& module, const Report& report) {
  std::vector<std::string> places;
  int seen = 0;
  for (const auto& event : report.module_events) {
    if (event.label == "warm" || event.status != LoadStatus::compiled || event.name != module) continue;
    if (++seen < 2 || !event.detail || !event.detail->trigger) continue;
    const auto& trigger = *event.detail->trigger;
    const std::string place = fmt::format("{}:{}", trigger.file, trigger.line);
    if (std::find(places.begin(), places.end(), place) == places.end()) places.push_back(place);
  }
  return places.empty() ? "" : "; rebuilt from " + join(places, ", ");
}

// `@wp.kernel(module="unique")` names each module "<kernel>_<8 hex>".
bool looks_unique(const std::string& name) {
  static const std::regex pattern(".+_[0-9a-f]{8}");
  return std::regex_match(name, pattern);
}

std::string package_of(const std::string& name) {
  const auto dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(0, dot);
}

}  // namespace

std::string rebuild_finding(const analysis::RebuiltModule& module, const Report& report) {
  switch (module.cause) {
    case analysis::RebuildCause::identity_churn:
    case analysis::RebuildCause::both:
      return fmt::format(
                 "{}: the module's content changed after it was first loaded (a kernel, module option or generic "
                 "instance added late, or a closure created between launches){}",
                 module.cause == analysis::RebuildCause::both ? "identity churn and block_dim spread"
                                                              : "identity churn",
                 rebuild_triggers(module.name, report));
    case analysis::RebuildCause::block_dim_spread:
      return "block_dim spread: one module content compiled once per block_dim; launch with one block_dim or "
             "set the module's block_dim option";
    case analysis::RebuildCause::same_identity:
      return "same identity built again: the kernel cache was cleared or bypassed between loads";
  }
  return "";
}

Offender rebuild_offender(const analysis::RebuiltModule& module, const Report& report) {
  std::string detail = fmt::format("{} builds, {:.2f} s", module.builds, module.total_ms / 1000.0);
  if (module.hashes.size() > 1) detail += ", hashes " + join(module.hashes, " ");
  if (module.block_dims.size() > 1) {
    std::vector<std::string> dims;
    for (int dim : module.block_dims) dims.push_back(std::to_string(dim));
    detail += ", block_dims " + join(dims, " ");
  }
  return {module.name, detail, rebuild_finding(module, report)};
}

std::vector<Offender> module_offenders(const Report& report) {
  std::map<std::string, std::pair<int, double>> by_name;  // builds, ms
  for (const auto& event : report.module_events) {
    if (event.label == "warm" || event.status != LoadStatus::compiled) continue;
    auto& [builds, ms] = by_name[event.name];
    ++builds;
    ms += event.ms;
  }
  std::map<std::string, int> per_package;
  for (const auto& [name, stats] : by_name) {
    if (!package_of(name).empty()) ++per_package[package_of(name)];
  }
  std::vector<Offender> offenders;
  for (const auto& [name, stats] : by_name) {
    std::string finding;
    if (looks_unique(name)) {
      finding = "module=\"unique\" gives each kernel its own module, compiled separately (CS-9)";
    } else if (!package_of(name).empty() && per_package[package_of(name)] > 1) {
      finding = "one feature split over several Python modules, each compiled separately (CS-4)";
    }
    offenders.push_back({name, fmt::format("{} build(s), {:.2f} s", stats.first, stats.second / 1000.0), finding});
  }
  std::stable_sort(offenders.begin(), offenders.end(),
                   [&](const auto& a, const auto& b) { return by_name[a.module].second > by_name[b.module].second; });
  return offenders;
}

std::vector<Offender> slowest_offenders(const Report& report, std::size_t limit) {
  std::vector<Offender> offenders;
  for (const auto& identity : analysis::compiled_identities(report)) {
    if (offenders.size() >= limit) break;
    std::string detail = fmt::format("{:.2f} s", identity.ms / 1000.0);
    if (!identity.identity.hash.empty()) detail += ", hash " + identity.identity.hash;
    offenders.push_back({identity.identity.name, detail,
                         identity.built_pch ? "includes building the precompiled header (first build of the process)"
                                            : ""});
  }
  return offenders;
}

std::vector<Offender> source_offenders(const Report& report, std::size_t limit) {
  auto modules = report.cache.modules;
  std::stable_sort(modules.begin(), modules.end(), [](const auto& a, const auto& b) { return a.source_bytes > b.source_bytes; });
  std::vector<Offender> offenders;
  for (const auto& module : modules) {
    if (offenders.size() >= limit) break;
    std::string finding;
    if (module.backward_kernels > 0) {
      finding = fmt::format(
          "backward (adjoint) code generated for {} kernel(s); if no gradient is taken, set "
          "wp.config.enable_backward = False before the first @wp.kernel (CS-10)",
          module.backward_kernels);
    }
    offenders.push_back({module.directory, fmt::format("{} bytes of generated source", module.source_bytes), finding});
  }
  return offenders;
}

void attach_findings(std::vector<Offender>& offenders, const analysis::Diagnosis& diagnosis) {
  for (auto& offender : offenders) {
    const auto match = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(), [&](const auto& finding) {
      // Structure findings name a package ("feature") for modules "feature.a", "feature.b".
      return !finding.module.empty() &&
             (finding.module == offender.module || offender.module.rfind(finding.module + ".", 0) == 0);
    });
    if (match == diagnosis.findings.end()) continue;
    std::string label;
    for (const char* cause : {"identity churn and block_dim spread", "identity churn", "block_dim spread", "same identity"}) {
      if (offender.finding.rfind(cause, 0) == 0) {
        label = std::string(cause) + ": ";
        break;
      }
    }
    offender.finding = label + match->id + " " + match->title + (match->fix.empty() ? "" : "; fix: " + match->fix);
  }
}

std::vector<Offender> warm_offenders(const Report& report) {
  std::vector<Offender> offenders;
  std::set<std::string> seen;
  for (const auto& event : report.module_events) {
    if (event.label != "warm" || event.status != LoadStatus::compiled || !seen.insert(event.name).second) continue;
    std::string finding = "compiled again on a warm run: the kernel cache did not survive the process";
    if (report.instrumentation.app_kernel_cache_dir) {
      finding += " (the app points warp.config.kernel_cache_dir at " + *report.instrumentation.app_kernel_cache_dir + ", CS-2)";
    } else if (!report.instrumentation.cache_clears.empty()) {
      finding += " (the app calls " + report.instrumentation.cache_clears.front() + ", CS-2)";
    } else if (report.instrumentation.cache_kernels_disabled) {
      finding += " (warp.config.cache_kernels is False)";
    }
    offenders.push_back({event.name, fmt::format("{:.2f} s on the warm run", event.ms / 1000.0), finding});
  }
  return offenders;
}

}  // namespace wcp::budget
