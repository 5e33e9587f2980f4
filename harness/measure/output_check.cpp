#include "measure/output_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace wcp::measure {
namespace {

// From the instrumentation's records of the probed pass: its processes, and per process the
// threads that loaded modules. Without records nothing is known, so no reordering is excused.
std::optional<ConcurrentWriters> writers_of(const instrument::InstrumentationEvents& events) {
  if (!events.attached()) return std::nullopt;
  ConcurrentWriters writers;
  writers.processes = std::max<int>(1, static_cast<int>(events.processes.size()));
  std::map<int, std::set<long long>> threads;
  for (const auto& load : events.loads) {
    if (load.detail.thread) threads[load.detail.pid].insert(*load.detail.thread);
  }
  for (const auto& [pid, ids] : threads)
    writers.load_threads = std::max<int>(writers.load_threads, static_cast<int>(ids.size()));
  return writers;
}

PassOutputCheck compare_pass(Pass pass, const PassRecord& bare, const PassRecord& probe) {
  PassOutputCheck check;
  check.pass = pass;
  check.bare_exit_code = bare.run.exit_code;
  check.probe_exit_code = probe.run.exit_code;
  const auto& expected = *bare.output;
  const auto& actual = *probe.output;
  check.stdout_lines = expected.out.lines();
  check.stderr_lines = expected.err.lines();
  check.ignored_lines = expected.out.ignored() + expected.err.ignored() + actual.out.ignored() + actual.err.ignored();
  check.stdout_difference = first_difference(expected.out, actual.out);
  check.stderr_difference = first_difference(expected.err, actual.err);
  check.writers = writers_of(probe.instrumentation);
  return check;
}

}  // namespace

OutputCheck check_output(const SampleRecord& without_probe, const std::vector<SampleRecord>& samples,
                         const std::vector<std::string>& ignored_patterns) {
  OutputCheck check;
  check.ignored_patterns = ignored_patterns;
  if (samples.empty() || !samples.front().cold.output || !without_probe.cold.output) {
    check.not_compared.push_back("cold: no sample ran");
    return check;
  }
  const SampleRecord& first = samples.front();
  check.passes.push_back(compare_pass(Pass::cold, without_probe.cold, first.cold));
  const bool bare_warm = without_probe.warm && without_probe.warm->output;
  const bool probe_warm = first.warm && first.warm->output;
  if (bare_warm && probe_warm) {
    check.passes.push_back(compare_pass(Pass::warm, *without_probe.warm, *first.warm));
  } else if (bare_warm != probe_warm) {
    check.not_compared.push_back(fmt::format("warm: only the run {} the probe had a warm run (its cold run failed)",
                                             bare_warm ? "without" : "with"));
  }
  return check;
}

}  // namespace wcp::measure
