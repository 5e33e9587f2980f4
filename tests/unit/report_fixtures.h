#pragma once
// Crafted reports shared by the unit tests: small, explicit, and measured the way `measure`
// would measure them (one successful sample, a warm run, a launch record).
#include <string>
#include <vector>

#include "model/report.h"

namespace wcp::testing {

inline ModuleEvent compiled(const std::string& name, const std::string& hash, double ms, Pass pass = Pass::cold) {
  ModuleEvent event;
  event.name = name;
  event.hash = hash;
  event.device = "cpu";
  event.ms = ms;
  event.status = LoadStatus::compiled;
  event.pass = pass;
  return event;
}

inline LaunchSignature launch_of(const std::string& kernel, std::int64_t n) {
  LaunchSignature launch;
  launch.kernel = kernel;
  launch.module = "__main__";
  launch.dim = {n};
  launch.device = "cpu";
  return launch;
}

// The main process of a crafted report, made (with a launch record) when it has none.
inline ProcessRecord& main_record(Report& report) {
  for (auto& process : report.processes) {
    if (process.role == ProcessRole::main) return process;
  }
  report.processes.emplace_back();
  report.processes.back().launches_recorded = true;
  return report.processes.back();
}

inline LaunchRecord& launches(Report& report) {
  return main_record(report).launches;
}

// One clean sample: one module, built once, cached on the warm run, three launches of one kernel.
inline Report clean_report(double cold_ms = 3000.0) {
  Report report;
  report.samples = 1;
  SampleResult sample;
  sample.index = 1;
  sample.cold_ok = true;
  sample.cold_module_ms = cold_ms;
  sample.cold_wall_ms = cold_ms + 700.0;
  sample.warm_module_ms = 3.0;
  sample.warm_wall_ms = 500.0;
  sample.warm_compiled_events = 0;
  report.sample_results = {sample};
  report.cold_module_ms = summarize({cold_ms});
  report.warm_module_ms = summarize({3.0});
  report.cold_wall_ms = summarize({cold_ms + 700.0});
  report.warm_wall_ms = summarize({500.0});
  report.compile_elapsed_ms = summarize({cold_ms + 200.0});
  report.overlap_factor = cold_ms / (cold_ms + 200.0);
  report.modules = 1;
  report.identities = 1;
  report.compiled_events = 1;
  report.module_events = {compiled("__main__", "aaaaaaa", cold_ms)};
  report.cache.generated_source_bytes = 20'000;
  report.cache.modules = {{"wp___main___aaaaaaa", 20'000, 1, 1, {}, 0}};
  report.instrumentation.attached = true;
  launches(report).append(launch_of("k", 16), 3);
  return report;
}

// clean_report's shape over several samples: sample k's cold module work is cold_ms[k] (its
// other clocks follow it as clean_report's do), with each clock summarised over the samples.
inline Report report_of_runs(const std::vector<double>& cold_ms) {
  Report report = clean_report(cold_ms.front());
  report.sample_results.clear();
  std::vector<double> cold_walls, compile_elapsed, warm_module, warm_walls;
  for (std::size_t i = 0; i < cold_ms.size(); ++i) {
    SampleResult sample = clean_report(cold_ms[i]).sample_results.front();
    sample.index = static_cast<int>(i) + 1;
    sample.compile_elapsed_ms = cold_ms[i] + 200.0;
    report.sample_results.push_back(sample);
    cold_walls.push_back(sample.cold_wall_ms);
    compile_elapsed.push_back(*sample.compile_elapsed_ms);
    warm_module.push_back(*sample.warm_module_ms);
    warm_walls.push_back(*sample.warm_wall_ms);
  }
  report.samples = static_cast<int>(cold_ms.size());
  report.cold_module_ms = summarize(cold_ms);
  report.cold_wall_ms = summarize(cold_walls);
  report.compile_elapsed_ms = summarize(compile_elapsed);
  report.warm_module_ms = summarize(warm_module);
  report.warm_wall_ms = summarize(warm_walls);
  return report;
}

// Where a crafted report's Warp is installed: what ownership tells Warp's code by.
inline constexpr const char* kWarpDir = "/venv/lib/python3.11/site-packages/warp/";

inline KernelInfo kernel_in(const std::string& key, const std::string& file, int line,
                            const std::string& python_module = "__main__", const std::string& qualname = "") {
  KernelInfo kernel;
  kernel.key = key;
  kernel.file = file;
  kernel.line = line;
  kernel.python_module = python_module;
  kernel.qualname = qualname.empty() ? key : qualname;
  if (file.starts_with(kWarpDir)) kernel.package = Package{"warp-lang", "1.19.0"};
  return kernel;
}

// A compiled cold load with the instrumentation's snapshot: its kernels and loading stack
// (innermost first).
inline ModuleEvent snapshot_load(const std::string& name, const std::string& hash, double ms,
                                 std::vector<KernelInfo> kernels, std::vector<SourceLocation> stack = {},
                                 const std::string& device = "cpu") {
  ModuleEvent event = compiled(name, hash, ms);
  event.device = device;
  event.block_dim = device == "cpu" ? 1 : 256;
  LoadDetail detail;
  detail.kernels = std::move(kernels);
  detail.stack = std::move(stack);
  detail.options = {{"block_dim", "256"}, {"enable_backward", "False"}, {"max_unroll", "16"}};
  event.detail = std::move(detail);
  return event;
}

}  // namespace wcp::testing
