#include "calibrate/warp_cpu_run.h"

#include <fmt/format.h>

#include "calibrate/linear_fit.h"
#include "calibrate/warp_cpu_app.h"
#include "errors.h"
#include "measure/sample_runner.h"
#include "stats/summary.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

namespace wcp::calibrate {
namespace {

double median_of(const std::vector<WarpCpuSample>& samples, double WarpCpuSample::*field) {
  std::vector<double> values;
  for (const auto& sample : samples) values.push_back(sample.*field);
  return median(values);
}

double mad_of(const std::vector<WarpCpuSample>& samples, double WarpCpuSample::*field) {
  std::vector<double> values;
  for (const auto& sample : samples) values.push_back(sample.*field);
  return median_absolute_deviation(values);
}

// One process of the app with use_precompiled_headers on or off: its compiled module timings.
WarpCpuSample run_once(const WarpCpuInputs& inputs, const std::filesystem::path& app_dir, bool pch, int index,
                       InterruptWatch& interrupts) {
  measure::MeasureOptions options;
  options.command = {inputs.python, (app_dir / "driver.py").string(), pch ? "1" : "0"};
  options.cwd = app_dir;
  options.samples = inputs.samples;
  options.timeout = std::chrono::minutes(10);
  options.cold_only = true;
  measure::SilentProgress silent;
  const auto record = measure::run_sample(options, index, interrupts, silent);
  if (!record.cold.run.succeeded()) {
    throw RunError("the Warp CPU calibration app failed (" + std::to_string(record.cold.run.exit_code) +
                   "); is warp-lang installed for " + inputs.python + "? Output:\n" + record.cold.run.output_tail);
  }
  std::vector<double> module_ms;
  for (const auto& event : record.cold.log.module_events) {
    if (event.status == LoadStatus::compiled) module_ms.push_back(event.ms);
  }
  if (module_ms.size() != std::size(kWarpCpuFamily) + 1) {
    throw RunError(fmt::format("the Warp CPU calibration app compiled {} modules, expected {}: Warp's module "
                               "timers may be silenced in this environment",
                               module_ms.size(), std::size(kWarpCpuFamily) + 1));
  }
  return fit_warp_cpu_sample(module_ms);
}

CostModel summarize_configuration(const std::vector<WarpCpuSample>& samples) {
  CostModel model;
  model.fixed_ms = median_of(samples, &WarpCpuSample::fixed_ms);
  model.fixed_mad_ms = mad_of(samples, &WarpCpuSample::fixed_ms);
  model.per_kernel_ms = median_of(samples, &WarpCpuSample::per_kernel_ms);
  model.per_kernel_mad_ms = mad_of(samples, &WarpCpuSample::per_kernel_ms);
  model.r_squared = median_of(samples, &WarpCpuSample::r_squared);
  return model;
}

}  // namespace

void write_warp_cpu_app(const std::filesystem::path& directory) {
  std::vector<GeneratedModule> modules{{"cal_warmup", 1}};
  for (int kernels : kWarpCpuFamily) modules.push_back({fmt::format("cal_k{}", kernels), kernels});
  write_warp_cpu_driver(directory, modules);
}

WarpCpuSample fit_warp_cpu_sample(const std::vector<double>& module_ms) {
  std::vector<double> xs, ys;
  for (std::size_t i = 0; i < std::size(kWarpCpuFamily); ++i) {
    xs.push_back(kWarpCpuFamily[i]);
    ys.push_back(module_ms.at(i + 1));
  }
  const LinearFit fit = fit_line_robust(xs, ys);
  return {fit.intercept, fit.slope, fit.r_squared, module_ms.at(0) - module_ms.at(1)};
}

WarpCpuCalibration run_warp_cpu_calibration(const WarpCpuInputs& inputs, InterruptWatch& interrupts,
                                            const std::function<void(const std::string&)>& progress) {
  ScratchDir app("warp-compile-probe-cpu-cal-");
  write_warp_cpu_app(app.path());
  // The two configurations alternate, sample by sample, so a slow patch on a shared machine
  // lands on both instead of bending one of them.
  std::vector<WarpCpuSample> without_pch, with_pch;
  for (int index = 1; index <= inputs.samples; ++index) {
    for (const bool pch : {false, true}) {
      progress(fmt::format("warp cpu, use_precompiled_headers={}: sample {}/{}", pch ? "True" : "False", index,
                           inputs.samples));
      (pch ? with_pch : without_pch).push_back(run_once(inputs, app.path(), pch, index, interrupts));
    }
  }
  WarpCpuCalibration calibration;
  calibration.without_pch = summarize_configuration(without_pch);
  calibration.with_pch = summarize_configuration(with_pch);
  calibration.pch_build_ms = median_of(with_pch, &WarpCpuSample::pch_build_ms);
  return calibration;
}

}  // namespace wcp::calibrate
