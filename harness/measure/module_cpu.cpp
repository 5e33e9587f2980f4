#include "measure/module_cpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace wcp::measure {

double union_length(std::vector<std::pair<double, double>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  double total = 0.0;
  std::optional<std::pair<double, double>> open;
  for (const auto& [start, end] : intervals) {
    if (end <= start) continue;
    if (open && start <= open->second) {
      open->second = std::max(open->second, end);
      continue;
    }
    if (open) total += open->second - open->first;
    open = std::pair{start, end};
  }
  if (open) total += open->second - open->first;
  return total;
}

ModuleCpu module_cpu(const std::vector<ModuleEvent>& events, bool compiled_only) {
  double threads_ms = 0.0;
  std::map<int, std::vector<std::pair<double, double>>> children_by_process;
  for (const auto& event : events) {
    if (compiled_only && event.status != LoadStatus::compiled) continue;
    if (!event.detail) {
      return {std::nullopt, fmt::format("the load of {} was seen only in Warp's log (a process the instrumentation "
                                        "did not attach to), which has no CPU clock",
                                        event.name)};
    }
    if (!event.detail->cpu_ms) {
      return {std::nullopt, fmt::format("the instrumentation recorded no CPU clock for the load of {} (this Warp "
                                        "version or platform gives no per-thread CPU clock at that load)",
                                        event.name)};
    }
    threads_ms += *event.detail->cpu_ms;
    if (event.detail->children_cpu_s) children_by_process[event.detail->pid].push_back(*event.detail->children_cpu_s);
  }
  double children_ms = 0.0;
  for (auto& [pid, intervals] : children_by_process) children_ms += 1000.0 * union_length(std::move(intervals));
  return {threads_ms + children_ms, ""};
}

}  // namespace wcp::measure
