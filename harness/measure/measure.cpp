#include "measure/measure.h"

#include "errors.h"
#include "instrument/probe_injection.h"
#include "measure/report_builder.h"
#include "measure/sample_runner.h"
#include "run/interrupt_watch.h"
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
  // Find the program now, so a typo fails before the first sample rather than as N failures.
  auto environment = instrument::current_environment();
  for (const auto& [name, value] : options.extra_environment) environment[name] = value;
  resolve_executable(options.command.front(), environment, options.cwd);
}

Report measure(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress) {
  validate(options);
  std::vector<SampleRecord> samples;
  samples.reserve(static_cast<std::size_t>(options.samples));
  for (int index = 1; index <= options.samples; ++index) {
    samples.push_back(run_sample(options, index, interrupts, progress));
    interrupts.throw_if_interrupted();
  }
  progress.done();
  return build_report(options, samples);
}

}  // namespace wcp::measure
