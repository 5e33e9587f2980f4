#include "reference/warp_cpu_reference.h"

#include <fmt/format.h>

#include "calibrate/warp_cpu_app.h"
#include "errors.h"
#include "measure/sample_runner.h"
#include "run/output_tail.h"

namespace wcp::reference {

WarpCpuReference::WarpCpuReference(std::string python)
    : python_(std::move(python)), app_("warp-compile-probe-reference-") {
  std::vector<calibrate::GeneratedModule> modules{{"ref_first", 1}};
  for (int build = 0; build < kWarpCpuReferenceModules; ++build) {
    modules.push_back({fmt::format("ref_m{}", build), kWarpCpuReferenceKernels});
  }
  calibrate::write_warp_cpu_driver(app_.path(), modules);
}

std::string WarpCpuReference::name() const {
  return fmt::format("warp_cpu/pch-build+{}x{}-kernel-modules/v1", kWarpCpuReferenceModules, kWarpCpuReferenceKernels);
}

std::string WarpCpuReference::description() const {
  return fmt::format(
      "one Warp CPU process's cold module work: a one-kernel module that also builds the precompiled "
      "header, then {} modules of {} kernels",
      kWarpCpuReferenceModules, kWarpCpuReferenceKernels);
}

ReferenceSample warp_cpu_sample_from(int after_sample, const std::vector<double>& compiled_ms) {
  ReferenceSample sample;
  sample.after_sample = after_sample;
  const auto expected = static_cast<std::size_t>(kWarpCpuReferenceModules) + 1;
  if (compiled_ms.size() != expected) {
    sample.failure = fmt::format(
        "the reference app compiled {} modules, expected {}: Warp's module timers may be "
        "silenced in this environment",
        compiled_ms.size(), expected);
    return sample;
  }
  sample.builds_ms = compiled_ms;
  return sample;
}

ReferenceSample WarpCpuReference::take(int after_sample, InterruptWatch& interrupts,
                                       measure::ProgressListener& progress) {
  measure::MeasureOptions options;
  options.command = {python_, (app_.path() / "driver.py").string(), "1"};
  options.cwd = app_.path();
  options.samples = 1;
  options.timeout = std::chrono::minutes(10);
  options.cold_only = true;
  ReferenceSample failed;
  failed.after_sample = after_sample;
  try {
    progress.plan(measure::passes_per_sample(options.cold_only));
    const auto record = measure::run_sample(options, after_sample, interrupts, progress);
    if (!record.cold.run.succeeded()) {
      failed.failure = fmt::format(
          "the reference app failed (exit {}: {}); is warp-lang installed for {}? "
          "(--reference-python)",
          record.cold.run.exit_code, last_line(record.cold.run.output_tail), python_);
      return failed;
    }
    std::vector<double> compiled_ms;
    for (const auto& event : record.cold.log.module_events) {
      if (event.status == LoadStatus::compiled) compiled_ms.push_back(event.ms);
    }
    return warp_cpu_sample_from(after_sample, compiled_ms);
  } catch (const RunError& error) {
    failed.failure = std::string("the reference app could not run: ") + error.what();
    return failed;
  }
}

}  // namespace wcp::reference
