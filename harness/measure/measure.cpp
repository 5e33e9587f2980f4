#include "measure/measure.h"

#include "errors.h"
#include "io/environment.h"
#include "io/executable.h"
#include "measure/cache_audit.h"
#include "measure/hash_experiments.h"
#include "measure/output_check.h"
#include "measure/perfetto_trace.h"
#include "measure/report_builder.h"
#include "measure/sample_runner.h"
#include "run/interrupt_watch.h"
#include "run/output_masks.h"
#include "run/process_runner.h"

namespace wcp::measure {

void validate(const MeasureOptions& options) {
  if (options.command.empty()) throw UsageError("no command to measure: put it after `--`");
  if (options.samples < 1) throw UsageError("--samples must be at least 1");
  if (options.timeout.count() <= 0) throw UsageError("--timeout must be a positive number of seconds");
  std::error_code error;
  if (!std::filesystem::is_directory(options.cwd, error)) {
    throw UsageError("working directory " + options.cwd.string() + " does not exist");
  }
  if (options.warm_cache && !std::filesystem::is_directory(*options.warm_cache, error)) {
    throw UsageError("--warm-cache " + options.warm_cache->string() + " is not a directory");
  }
  OutputMasks patterns;
  for (const auto& pattern : options.ignore_output) patterns.add_ignored(pattern, "--ignore-output");
  // Find the program now, so a typo fails before the first sample rather than as N failures.
  auto environment = current_environment();
  for (const auto& [name, value] : options.extra_environment) environment[name] = value;
  resolve_executable(options.command.front(), environment, options.cwd);
}

Measurement measure_with_trace(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress,
                               const AfterSample& after_sample, const StopSampling& stop) {
  validate(options);
  progress.plan((options.check_output ? 2 : 0) + options.samples * passes_per_sample(options.cold_only));
  std::optional<SampleRecord> without_probe;
  if (options.check_output) {
    progress.arm("without the probe");
    without_probe = run_without_probe(options, interrupts, progress);
    progress.arm("");
  }
  std::vector<SampleRecord> samples;
  BuildEnvironmentReader environments;  // one read of the compiler library for every report below
  samples.reserve(static_cast<std::size_t>(options.samples));
  std::optional<std::string> stopped;
  for (int index = 1; index <= options.samples; ++index) {
    try {
      samples.push_back(run_sample(options, index, interrupts, progress));
      interrupts.throw_if_interrupted();
      if (after_sample) after_sample(samples.back());
    } catch (const RunError& error) {
      // The machine, not the command, failed (no scratch space, the command could not start).
      // Before the first sample nothing has run; after it, what was measured is kept.
      if (samples.empty()) throw UsageError(std::string(error.what()) + "; nothing was run");
      stopped = error.what();
      break;
    }
    interrupts.throw_if_interrupted();
    if (stop && index < options.samples && stop(build_report(options, samples, &environments))) {
      progress.plan((options.check_output ? 2 : 0) + index * passes_per_sample(options.cold_only));
      break;
    }
  }
  std::optional<CacheAudit> audit;
  if (options.warm_cache && !samples.empty())
    audit = audit_warm_cache(options, *options.warm_cache, interrupts, progress);
  Measurement result{build_report(options, samples, &environments), build_trace(options, samples)};
  result.report.cache_audit = std::move(audit);
  if (!options.cold_only && result.report.measured()) {
    // Only when a hash varied, or when asked: the experiments cost about one more cold run.
    const auto varied = varied_hashes(samples);
    if (!varied.empty() || options.stable_hashes) {
      try {
        result.report.hash_stability =
            run_hash_experiments(options, varied, result.report.warp_version, interrupts, progress);
      } catch (const RunError& error) {
        result.report.notes.push_back(std::string("The hash experiments could not run: ") + error.what());
      }
    }
  }
  progress.done();
  if (without_probe) result.report.output_check = check_output(*without_probe, samples, options.ignore_output);
  if (stopped) {
    result.report.notes.push_back("Sampling stopped after " + std::to_string(samples.size()) + " of " +
                                  std::to_string(options.samples) + " samples: " + *stopped);
  }
  return result;
}

Report measure(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress,
               const AfterSample& after_sample, const StopSampling& stop) {
  return measure_with_trace(options, interrupts, progress, after_sample, stop).report;
}

}  // namespace wcp::measure
