#include "calibrate/warp_cpu_run.h"

#include <fmt/format.h>

#include <fstream>

#include "calibrate/linear_fit.h"
#include "errors.h"
#include "measure/sample_runner.h"
#include "model/stats.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

namespace wcp::calibrate {
namespace {

// Every kernel has the same body size; constants differ so no two kernels hash alike.
std::string module_source(const std::string& name, int kernels) {
  std::string source = "import warp as wp\n\n";
  for (int k = 0; k < kernels; ++k) {
    source += fmt::format(
        "@wp.kernel\n"
        "def {0}_k{1}(a: wp.array(dtype=float), b: wp.array(dtype=float)):\n"
        "    i = wp.tid()\n"
        "    x = a[i] * {2}.0 + b[i]\n"
        "    for _ in range(4):\n"
        "        x = wp.sin(x) * {3}.5 + wp.cos(x)\n"
        "    a[i] = x\n\n",
        name, k, k + 2, k + 1);
  }
  source += "KERNELS = [" ;
  for (int k = 0; k < kernels; ++k) source += fmt::format("{}_k{}, ", name, k);
  source += "]\n";
  return source;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) throw RunError("cannot write " + path.string());
}

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

CostModel run_configuration(const WarpCpuInputs& inputs, const std::filesystem::path& app_dir, bool pch,
                            std::optional<double>& pch_build_ms, InterruptWatch& interrupts,
                            const std::function<void(const std::string&)>& progress) {
  measure::MeasureOptions options;
  options.command = {inputs.python, (app_dir / "driver.py").string(), pch ? "1" : "0"};
  options.cwd = app_dir;
  options.samples = inputs.samples;
  options.timeout = std::chrono::minutes(10);
  measure::SilentProgress silent;
  std::vector<WarpCpuSample> samples;
  for (int index = 1; index <= inputs.samples; ++index) {
    progress(fmt::format("warp cpu, use_precompiled_headers={}: sample {}/{}", pch ? "True" : "False", index,
                         inputs.samples));
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
    samples.push_back(fit_warp_cpu_sample(module_ms));
  }
  CostModel model;
  model.fixed_ms = median_of(samples, &WarpCpuSample::fixed_ms);
  model.fixed_mad_ms = mad_of(samples, &WarpCpuSample::fixed_ms);
  model.per_kernel_ms = median_of(samples, &WarpCpuSample::per_kernel_ms);
  model.per_kernel_mad_ms = mad_of(samples, &WarpCpuSample::per_kernel_ms);
  model.r_squared = median_of(samples, &WarpCpuSample::r_squared);
  if (pch) pch_build_ms = median_of(samples, &WarpCpuSample::pch_build_ms);
  return model;
}

}  // namespace

void write_warp_cpu_app(const std::filesystem::path& directory) {
  write_file(directory / "cal_warmup.py", module_source("warmup", 1));
  std::string imports;
  std::string names = "[cal_warmup";
  for (int kernels : kWarpCpuFamily) {
    const std::string module = fmt::format("cal_k{}", kernels);
    write_file(directory / (module + ".py"), module_source(fmt::format("family{}", kernels), kernels));
    imports += "import " + module + "\n";
    names += ", " + module;
  }
  names += "]";
  write_file(directory / "driver.py",
             "import sys\n"
             "import warp as wp\n\n"
             "wp.config.use_precompiled_headers = sys.argv[1] == \"1\"\n"
             "import cal_warmup\n" +
                 imports +
                 "\n"
                 "a = wp.ones(64, dtype=float, device=\"cpu\")\n"
                 "b = wp.ones(64, dtype=float, device=\"cpu\")\n"
                 "for module in " + names + ":\n"
                 "    for kernel in module.KERNELS:\n"
                 "        wp.launch(kernel, dim=64, inputs=[a, b], device=\"cpu\")\n"
                 "wp.synchronize()\n");
}

WarpCpuSample fit_warp_cpu_sample(const std::vector<double>& module_ms) {
  std::vector<double> xs, ys;
  for (std::size_t i = 0; i < std::size(kWarpCpuFamily); ++i) {
    xs.push_back(kWarpCpuFamily[i]);
    ys.push_back(module_ms.at(i + 1));
  }
  const LinearFit fit = fit_line(xs, ys);
  return {fit.intercept, fit.slope, fit.r_squared, module_ms.at(0) - module_ms.at(1)};
}

WarpCpuCalibration run_warp_cpu_calibration(const WarpCpuInputs& inputs, InterruptWatch& interrupts,
                                            const std::function<void(const std::string&)>& progress) {
  ScratchDir app("warp-compile-probe-cpu-cal-");
  write_warp_cpu_app(app.path());
  WarpCpuCalibration calibration;
  std::optional<double> unused;
  calibration.without_pch = run_configuration(inputs, app.path(), false, unused, interrupts, progress);
  calibration.with_pch = run_configuration(inputs, app.path(), true, calibration.pch_build_ms, interrupts, progress);
  return calibration;
}

}  // namespace wcp::calibrate
