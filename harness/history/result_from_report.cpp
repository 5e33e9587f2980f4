#include "history/result_from_report.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "codec/report_json.h"
#include "facts/queries.h"
#include "facts/rebuilds.h"

namespace wcp::history {

std::string command_name(const Report& report) {
  return report.label.empty() ? command_name(report.command) : report.label;
}

std::string command_name(const std::vector<std::string>& argv) {
  std::string name;
  for (std::size_t index = 0; index < argv.size(); ++index) {
    const std::string& word = argv[index];
    if (!name.empty()) name += ' ';
    name += index == 0 ? std::filesystem::path(word).filename().string() : word;
  }
  return name;
}

void fill_from_report(Machine& machine, const Report& report) {
  machine.warp_version = report.warp_version;
  machine.cuda_toolkit = report.instrumentation.cuda_toolkit_version;
}

Machine machine_as_recorded(Machine machine, const Report& report) {
  Machine from_report;
  fill_from_report(from_report, report);
  if (machine.warp_version.empty()) machine.warp_version = from_report.warp_version;
  if (machine.cuda_toolkit.empty()) machine.cuda_toolkit = from_report.cuda_toolkit;
  return machine;
}

Result result_from_report(const Report& report, const ResultContext& context) {
  Result result;
  result.recorded_at = context.recorded_at;
  result.source = context.source;
  result.machine = context.machine;
  fill_from_report(result.machine, report);
  result.commit = context.commit;
  result.name = context.name.empty() ? command_name(report) : context.name;
  result.argv = report.command;
  result.cwd = report.cwd;
  result.samples = report.samples;
  result.failed_samples = report.failed_samples;
  result.verdict = context.verdict;
  result.branch = context.branch;
  result.report_json = report_to_json_text(report);
  result.tool_version = report.tool_version;
  if (!report.measured()) return result;  // nothing measured: clocks and structure stay absent

  static_cast<ColdStartClocks&>(result) = report;  // the clocks, as the report measured them
  if (report.reference && report.reference->cold_units) {
    result.cold_units = report.reference->cold_units;
    result.reference = report.reference->name;
  }
  result.warm_compiles = warm_compiles(report);
  result.lto_artifacts = report.cache.lto_artifacts;
  result.cuda_compile_cpu_ms = report.cuda_compile_cpu_ms;
  // Loads nobody observed leave the structure unrecorded: absent, not 0, so no step is read off it.
  if (!report.loads_observed) return result;
  result.identities = report.identities;
  result.modules = report.modules;
  result.compiled_events = report.compiled_events;
  std::set<std::string> identities;
  for (const auto& compiled : compiled_identities(report)) {
    identities.insert(compiled.identity.name + " " + compiled.identity.hash);
  }
  result.identity_set = std::vector<std::string>(identities.begin(), identities.end());
  std::vector<ModuleBuilds> rebuilt;
  for (const auto& module : rebuilt_modules(report)) rebuilt.push_back({module.name, module.builds});
  std::sort(rebuilt.begin(), rebuilt.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  result.rebuilt_modules = std::move(rebuilt);
  return result;
}

}  // namespace wcp::history
