#include "measure/sample_statistics.h"

#include <fmt/format.h>

#include <optional>
#include <set>
#include <string>

#include "facts/queries.h"
#include "measure/cuda_build_run.h"
#include "measure/load_events.h"
#include "measure/module_cpu.h"
#include "stats/summary.h"

namespace wcp::measure {
namespace {

// The distinct "<module> <hash>" a run loaded (compiled or from the cache), sorted: compared across
// samples, they show whether a module's content is the same in every run of the program (CS-9).
std::optional<std::vector<std::string>> loaded_identities(const ObservedLoads& loads) {
  if (!loads.observed) return std::nullopt;
  std::set<std::string> identities;
  for (const auto& event : loads.events) {
    if (event.status != LoadStatus::error) identities.insert(event.name + " " + event.hash);
  }
  return std::vector<std::string>{identities.begin(), identities.end()};
}

std::string describe_failure(const RunOutcome& run, std::chrono::milliseconds timeout) {
  std::string what;
  if (run.timed_out) {
    what = fmt::format("timed out after {:.0f} s and was stopped", std::chrono::duration<double>(timeout).count());
  } else if (run.signal) {
    what = fmt::format("was killed by signal {}", *run.signal);
  } else {
    what = fmt::format("exited with status {}", run.exit_code);
  }
  if (!run.output_tail.empty()) {
    // The last few lines are usually the error; keep the message short.
    std::string tail = run.output_tail;
    std::size_t cut = tail.size();
    for (int lines = 0; lines < 6 && cut > 0; ++lines) {
      cut = tail.rfind('\n', cut - 1);
      if (cut == std::string::npos) {
        cut = 0;
        break;
      }
    }
    what += "; last output:\n" + tail.substr(cut == 0 ? 0 : cut + 1);
  }
  return what;
}

// Per arch, every successful sample's CUDA compile CPU time: a sample without it (its process
// never reached exit, or the arch did not build) leaves the arch's summary out, never a 0.
void add_cuda_compile_summaries(Report& report) {
  std::map<int, std::vector<double>> by_arch;
  bool first = true;
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok) continue;
    const auto& totals = sample.cuda_compile_cpu_ms;
    if (first) {
      if (totals)
        for (const auto& [arch, ms] : *totals) by_arch[arch];
      first = false;
    }
    for (auto it = by_arch.begin(); it != by_arch.end();) {
      const auto found = totals ? totals->find(it->first) : std::map<int, double>::const_iterator{};
      if (!totals || found == totals->end()) {
        it = by_arch.erase(it);
      } else {
        it->second.push_back(found->second);
        ++it;
      }
    }
  }
  for (auto& [arch, values] : by_arch) {
    if (auto summary = summarize(values)) report.cuda_compile_cpu_ms[arch] = std::move(*summary);
  }
}

}  // namespace

const SampleRecord* add_sample_statistics(Report& report, const std::vector<SampleRecord>& samples,
                                          std::chrono::milliseconds timeout) {
  std::vector<double> cold_module, native, warm_module, cold_wall, warm_wall, elapsed, cold_cpu, warm_cpu;
  bool cold_module_unavailable = false, native_unavailable = false, warm_cpu_unavailable = false;
  std::string cold_cpu_unavailable;  // the first sample's reason: one is enough to leave it out
  const SampleRecord* first_ok = nullptr;
  for (const auto& sample : samples) {
    SampleResult result;
    result.index = sample.index;
    result.cold_ok = sample.cold.run.succeeded();
    result.timed_out = sample.cold.run.timed_out;
    result.exit_code = sample.cold.run.exit_code;
    result.cold_wall_ms = sample.cold.run.wall_ms;
    if (const auto& events = sample.cold.instrumentation; !events.cuda_build_windows.empty()) {
      // The builds ran after the program's own work: the program's cold wall leaves them out.
      result.cuda_build_wall_ms = cuda_build_window_ms(events.cuda_build_windows);
      result.cold_wall_ms -= *result.cuda_build_wall_ms;
      result.cuda_compile_cpu_ms = cuda_compile_cpu_by_arch(events);
    }
    const ObservedLoads cold_loads = observe_cold_loads(sample);
    result.cold_module_ms = module_work(cold_loads, true);
    result.native_compile_ms = native_compile(cold_loads);
    const ModuleCpu cold_cpu_of_sample =
        cold_loads.observed ? module_cpu(cold_loads.events, true) : ModuleCpu{std::nullopt, cold_loads.unobserved};
    result.cold_module_cpu_ms = cold_cpu_of_sample.ms;
    if (!result.cold_ok) {
      result.failure = describe_failure(sample.cold.run, timeout);
      ++report.failed_samples;
      report.timed_out_samples += result.timed_out ? 1 : 0;
      report.sample_results.push_back(std::move(result));
      continue;
    }
    if (first_ok == nullptr) first_ok = &sample;
    result.cold_identities = loaded_identities(cold_loads);
    // A statistic over some samples would silently mix measured and unmeasured runs: one
    // sample without it makes the whole figure unavailable.
    if (result.cold_module_ms)
      cold_module.push_back(*result.cold_module_ms);
    else
      cold_module_unavailable = true;
    if (result.native_compile_ms)
      native.push_back(*result.native_compile_ms);
    else
      native_unavailable = true;
    if (result.cold_module_cpu_ms)
      cold_cpu.push_back(*result.cold_module_cpu_ms);
    else if (cold_cpu_unavailable.empty())
      cold_cpu_unavailable = fmt::format("sample {}: {}", sample.index, cold_cpu_of_sample.unavailable);
    cold_wall.push_back(result.cold_wall_ms);
    if (sample.warm && sample.warm->run.succeeded()) {
      result.warm_wall_ms = sample.warm->run.wall_ms;
      const ObservedLoads warm_loads = observe_loads(*sample.warm);
      result.warm_module_ms = module_work(warm_loads, false);
      if (warm_loads.observed) result.warm_compiled_events = count_status(warm_loads.events, LoadStatus::compiled);
      if (result.warm_module_ms) warm_module.push_back(*result.warm_module_ms);
      if (warm_loads.observed) result.warm_module_cpu_ms = module_cpu(warm_loads.events, false).ms;
      if (result.warm_module_cpu_ms)
        warm_cpu.push_back(*result.warm_module_cpu_ms);
      else
        warm_cpu_unavailable = true;
      warm_wall.push_back(*result.warm_wall_ms);
    } else if (sample.warm) {
      result.warm_failure = describe_failure(sample.warm->run, timeout);
    }
    // Never credit a warm run that was not faster than its cold run: that difference is no
    // compile time (facts/queries.h, docs/measurement.md).
    const SampleElapsed credited = sample_compile_elapsed(result);
    result.compile_elapsed_ms = credited.ms;
    result.compile_elapsed_left_out = credited.left_out;
    if (credited.ms) {
      elapsed.push_back(*credited.ms);
    } else if (result.warm_wall_ms) {
      report.notes.push_back(credited.left_out + "; left out of compile elapsed.");
    }
    report.sample_results.push_back(std::move(result));
  }

  add_cuda_compile_summaries(report);
  if (!cold_module_unavailable) report.cold_module_ms = summarize(cold_module);
  if (!native_unavailable) report.native_compile_ms = summarize(native);
  if (cold_cpu_unavailable.empty()) {
    report.cold_module_cpu_ms = summarize(cold_cpu);
  } else if (report.cold_module_ms) {
    report.module_cpu_unavailable = cold_cpu_unavailable;
  }
  if (!warm_cpu_unavailable) report.warm_module_cpu_ms = summarize(warm_cpu);
  report.warm_module_ms = summarize(warm_module);
  report.cold_wall_ms = summarize(cold_wall);
  report.warm_wall_ms = summarize(warm_wall);
  report.compile_elapsed_ms = summarize(elapsed);
  if (report.cold_module_ms && report.compile_elapsed_ms && report.compile_elapsed_ms->median > 0.0) {
    report.overlap_factor = report.cold_module_ms->median / report.compile_elapsed_ms->median;
  }

  if (report.failed_samples > 0 && report.failed_samples < report.samples) {
    report.notes.push_back(fmt::format("{} of {} samples failed and are left out of the statistics.",
                                       report.failed_samples, report.samples));
  }
  const auto warm_dropped = static_cast<int>(cold_wall.size() - warm_wall.size());
  if (warm_dropped > 0) {
    report.notes.push_back(fmt::format(
        "{} warm run(s) failed or timed out and were dropped: a failed warm run credits nothing, so warm figures and "
        "compile elapsed use the remaining {}{}.",
        warm_dropped, warm_wall.size(), warm_wall.empty() ? " (none: they are unavailable)" : ""));
  }
  return first_ok;
}

}  // namespace wcp::measure
