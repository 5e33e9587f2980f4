#include "measure/report_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

#include "facts/test_attribution.h"
#include "measure/build_environment.h"
#include "measure/cuda_build_run.h"
#include "measure/instrumentation_notes.h"
#include "measure/interop_launches.h"
#include "measure/lever_arrivals.h"
#include "measure/load_events.h"
#include "measure/option_record.h"
#include "measure/process_roles.h"
#include "measure/sample_statistics.h"

namespace wcp::measure {
namespace {

// What the first successful sample's cold run built, who built it and what Warp said: the
// report's structure (one run's, not a statistic).
void describe_structure(Report& report, const SampleRecord& sample, const MeasureOptions& options) {
  report.module_events = pass_events(sample.cold, Pass::cold);
  if (sample.warm && sample.warm->run.succeeded()) {
    auto warm = pass_events(*sample.warm, Pass::warm);
    report.module_events.insert(report.module_events.end(), warm.begin(), warm.end());
  }
  const ObservedLoads cold_loads = observe_cold_loads(sample);
  report.loads_observed = cold_loads.observed;
  report.loads_unobserved = cold_loads.unobserved;
  if (!cold_loads.observed) report.notes.push_back("Module loads were not observed: " + cold_loads.unobserved + ".");
  const auto& cold_events = cold_loads.events;
  const auto probe_timed = std::count_if(cold_events.begin(), cold_events.end(),
                                         [](const ModuleEvent& event) { return event.timer == LoadTimer::probe; });
  if (cold_loads.observed && probe_timed > 0) {
    report.notes.push_back(fmt::format(
        "Warp printed no load timer for {} of the cold run's {} module load(s) (the program keeps Warp's log quiet, or "
        "a test runner captured its output): their times are the instrumentation's clock around the span Warp times.",
        probe_timed, cold_events.size()));
  }
  report.identities = count_identities(cold_events);
  std::set<std::string> modules;
  for (const auto& event : cold_events) {
    if (event.status == LoadStatus::compiled) modules.insert(event.name);
  }
  report.modules = modules.size();
  report.compiled_events = count_status(cold_events, LoadStatus::compiled);
  report.cached_events = count_status(cold_events, LoadStatus::cached);
  report.error_events = count_status(cold_events, LoadStatus::error);
  report.cache = sample.inventory;
  report.processes = processes_of(sample.cold, options.cwd.string());
  add_interop_launches(report);
  report.option_record = option_record_of(sample.cold);
  report.tests = test_attribution(report);
  report.lever_arrivals = lever_arrivals_of(sample.cold);
  report.cuda_build = cuda_build_run_of(sample.cold.instrumentation);
  report.hash_changes = sample.cold.log.hash_changes;
  report.find_failures = sample.cold.log.find_failures;
  report.warp_version = sample.cold.log.warp_version;
  for (const auto& process : sample.cold.instrumentation.processes) {
    if (report.warp_version.empty()) report.warp_version = process.warp_version;
  }
}

}  // namespace

std::uint64_t count_identities(const std::vector<ModuleEvent>& events) {
  std::set<ModuleIdentity> identities;
  for (const auto& event : events) {
    if (event.status == LoadStatus::compiled) identities.insert(identity_of(event));
  }
  return identities.size();
}

Report build_report(const MeasureOptions& options, const std::vector<SampleRecord>& samples,
                    BuildEnvironmentReader* environments) {
  Report report;
  report.tool_version = WCP_VERSION;
  report.command = options.command;
  report.cwd = options.cwd.string();
  report.label = options.label;
  report.samples = static_cast<int>(samples.size());
  const SampleRecord* first_ok = add_sample_statistics(report, samples, options.timeout);
  if (first_ok == nullptr) {
    // What the probe did is known even when the program then failed (a lever it needs).
    if (!samples.empty()) report.lever_arrivals = lever_arrivals_of(samples.front().cold);
    return report;
  }
  describe_structure(report, *first_ok, options);
  describe_instrumentation(report, *first_ok);
  report.build_environment = environments ? environments->read(report) : build_environment_of(report);
  return report;
}

}  // namespace wcp::measure
