#include "measure/instrumentation_notes.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

namespace wcp::measure {
namespace {

bool inside(const std::string& path, const std::string& root) {
  return !root.empty() && path.starts_with(root);
}

// On/off from an environment value the way CUDA reads CUDA_CACHE_DISABLE: set and not "0".
bool flag_value(const std::optional<std::string>& value) {
  if (!value) return false;
  return !value->empty() && *value != "0";
}

}  // namespace

void describe_instrumentation(Report& report, const SampleRecord& sample) {
  const auto& events = sample.cold.instrumentation;
  auto& status = report.instrumentation;
  status.attached = events.attached();
  status.cache_clears = events.cache_clears;
  std::optional<bool> cuda_cache_disabled;
  for (const auto& process : events.processes) {
    for (const auto& what : process.missing) {
      if (std::find(status.missing.begin(), status.missing.end(), what) == status.missing.end())
        status.missing.push_back(what);
    }
    if (status.warp_api.empty()) status.warp_api = process.api;
    if (status.warp_dir.empty()) status.warp_dir = process.warp_dir;
    if (status.timers.empty()) status.timers = process.timers;
    if (!process.exit) continue;
    const auto& exit = *process.exit;
    if (!status.use_precompiled_headers) status.use_precompiled_headers = exit.use_precompiled_headers;
    if (status.cuda_toolkit_version.empty()) status.cuda_toolkit_version = exit.cuda_toolkit;
    if (exit.cache_kernels == false) status.cache_kernels_disabled = true;
    if (exit.kernel_cache_dir && !exit.kernel_cache_dir->empty() &&
        !inside(*exit.kernel_cache_dir, sample.private_cache_dir)) {
      status.app_kernel_cache_dir = exit.kernel_cache_dir;
    }
    if (const auto found = exit.environ.find("CUDA_CACHE_DISABLE"); found != exit.environ.end()) {
      cuda_cache_disabled = cuda_cache_disabled.value_or(false) || flag_value(found->second);
    }
  }
  // The cache as each load saw it: an application that disables the CUDA cache or caching
  // itself part-way is seen here even when it exits without an exit record.
  for (const auto& load : events.loads) {
    if (const auto found = load.cache.find("CUDA_CACHE_DISABLE"); found != load.cache.end()) {
      cuda_cache_disabled = cuda_cache_disabled.value_or(false) || flag_value(found->second);
    }
    if (const auto found = load.cache.find("cache_kernels"); found != load.cache.end() && found->second == "false") {
      status.cache_kernels_disabled = true;
    }
  }
  status.cuda_cache_disabled = cuda_cache_disabled;
  if (status.app_kernel_cache_dir) {
    report.notes.push_back(fmt::format(
        "The application set warp.config.kernel_cache_dir to {}: cache isolation and the cache inventory depend on the "
        "application.",
        *status.app_kernel_cache_dir));
  }
  if (!status.attached) {
    report.notes.push_back(
        "The instrumentation did not attach (the command never imported warp through Python's import system, or a "
        "sitecustomize could not run): figures come from Warp's log alone; launches and per-load details are missing.");
  }
  for (const auto& process : report.processes) {
    if (!process.launches_recorded) {
      report.notes.push_back(fmt::format("Process {} ({} {}) wrote no launch record: its launches are unknown.",
                                         process.pid, to_string(process.role), process.program));
    } else if (!process.launches_final) {
      report.notes.push_back(fmt::format(
          "Process {} ({} {}) ended without a final launch record (killed or crashed): its launches are recorded up to "
          "its last snapshot.",
          process.pid, to_string(process.role), process.program));
    }
  }
  for (const auto& what : status.missing) report.notes.push_back("Instrumentation could not observe: " + what + ".");
  if (const auto malformed = events.malformed_lines(); malformed > 0) {
    report.notes.push_back(
        fmt::format("{} line(s) of the instrumentation's event files could not be read.", malformed));
  }
}

}  // namespace wcp::measure
