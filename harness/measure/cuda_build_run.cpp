#include "measure/cuda_build_run.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <utility>

#include "parse/nvrtc_trace.h"

namespace wcp::measure {
namespace {

std::string file_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  return content.str();
}

// NVRTC's trace read from the file the probe named (in the run's event folder) into the build:
// its phases, and its kernels under their Python keys. Without a trace, why.
void read_trace(instrument::CudaBuildRecord& record) {
  CudaModuleBuild& build = record.build;
  if (!build.error.empty()) {
    build.trace_unavailable = "the build failed";
  } else if (record.trace_path.empty()) {
    build.trace_unavailable = "NVRTC wrote no time trace (NVRTC before 12.8, or a Warp without compile_time_trace)";
  } else if (auto trace = parse::read_nvrtc_trace(file_text(record.trace_path), build.trace_unavailable)) {
    build.phases = trace->phases;
    build.kernels = std::move(trace->kernels);
    for (auto& kernel : build.kernels) {
      if (const auto key = record.kernel_keys.find(kernel.mangled); key != record.kernel_keys.end())
        kernel.kernel = key->second;
    }
  }
}

}  // namespace

void read_cuda_build_traces(instrument::InstrumentationEvents& events) {
  for (auto& record : events.cuda_builds) read_trace(record);
}

std::optional<int> parse_cuda_arch(const std::string& text) {
  std::string_view digits = text;
  if (digits.starts_with("sm_")) digits.remove_prefix(3);
  int arch = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), arch);
  if (digits.empty() || error != std::errc{} || end != digits.data() + digits.size() || arch < 10 || arch > 999)
    return std::nullopt;
  return arch;
}

std::string cuda_archs_variable_value(const std::vector<int>& archs) {
  std::string value;
  for (const int arch : archs) value += (value.empty() ? "" : ",") + std::to_string(arch);
  return value;
}

double cuda_build_window_ms(const std::vector<instrument::CudaBuildWindow>& windows) {
  std::vector<std::pair<double, double>> spans;
  for (const auto& window : windows) {
    if (window.t_end > window.t_start) spans.emplace_back(window.t_start, window.t_end);
  }
  std::sort(spans.begin(), spans.end());
  double total = 0.0, covered_to = 0.0;
  bool started = false;
  for (const auto& [start, end] : spans) {
    const double from = started ? std::max(start, covered_to) : start;
    if (end > from) total += end - from;
    covered_to = started ? std::max(covered_to, end) : end;
    started = true;
  }
  return total * 1000.0;
}

std::optional<CudaBuildRun> cuda_build_run_of(const instrument::InstrumentationEvents& events) {
  if (events.cuda_build_windows.empty()) return std::nullopt;
  CudaBuildRun run;
  for (const auto& window : events.cuda_build_windows) {
    for (const int arch : window.archs)
      if (std::find(run.archs.begin(), run.archs.end(), arch) == run.archs.end()) run.archs.push_back(arch);
    run.workers = std::max(run.workers, window.workers);
    if (run.unavailable.empty()) run.unavailable = window.unavailable;
  }
  run.added_wall_ms = cuda_build_window_ms(events.cuda_build_windows);
  for (const auto& record : events.cuda_builds) run.modules.push_back(record.build);
  // Costliest first: the answer first (ClangBuildAnalyzer's order).
  std::stable_sort(run.modules.begin(), run.modules.end(), [](const CudaModuleBuild& a, const CudaModuleBuild& b) {
    return a.cpu_ms.value_or(-1.0) > b.cpu_ms.value_or(-1.0);
  });
  // Another process that did build leaves no reason to call the whole run unavailable.
  if (!run.modules.empty()) run.unavailable.clear();
  return run;
}

std::map<int, double> cuda_compile_cpu_by_arch(const instrument::InstrumentationEvents& events) {
  CudaBuildRun run;
  for (const auto& window : events.cuda_build_windows)
    run.archs.insert(run.archs.end(), window.archs.begin(), window.archs.end());
  for (const auto& record : events.cuda_builds) run.modules.push_back(record.build);
  std::map<int, double> totals;
  for (const int arch : run.archs) {
    if (const auto ms = run.cpu_ms_for(arch)) totals[arch] = *ms;
  }
  return totals;
}

}  // namespace wcp::measure
