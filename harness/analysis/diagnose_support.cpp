#include "analysis/diagnose_support.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>

#include "analysis/mechanisms.h"

namespace wcp::analysis {

std::vector<const ModuleEvent*> cold_compiled(const Report& report) {
  std::vector<const ModuleEvent*> events;
  for (const auto& event : report.module_events) {
    if (event.label != "warm" && event.status == LoadStatus::compiled) events.push_back(&event);
  }
  return events;
}

bool loads_on_cuda(const Report& report) {
  return std::any_of(report.module_events.begin(), report.module_events.end(),
                     [](const ModuleEvent& event) { return event.device.starts_with("cuda"); });
}

bool loads_on_cpu(const Report& report) {
  return std::any_of(report.module_events.begin(), report.module_events.end(),
                     [](const ModuleEvent& event) { return event.device == "cpu"; });
}

const ModuleSource* source_of(const Report& report, const std::string& name, const std::string& hash) {
  const std::string directory = "wp_" + name + "_" + hash;
  for (const auto& module : report.cache.modules) {
    if (module.directory == directory || (!hash.empty() && module.directory.starts_with(directory))) return &module;
  }
  return nullptr;
}

std::optional<FixedCost> fixed_module_cost(const Report& report, const DiagnoseInputs& inputs) {
  const bool pch = report.instrumentation.use_precompiled_headers.value_or(true);
  if (inputs.calibration) {
    const auto& calibration = *inputs.calibration;
    if (loads_on_cuda(report) && calibration.cuda.without_pch.fixed_ms > 0.0) {
      return FixedCost{calibration.cuda_fixed_ms(pch),
                       fmt::format("calibrated NVRTC fixed cost per module ({})", pch ? "with PCH" : "without PCH")};
    }
    if (!loads_on_cuda(report) && calibration.warp_cpu) {
      const auto& cpu = *calibration.warp_cpu;
      if (pch && cpu.with_pch) return FixedCost{cpu.with_pch->fixed_ms, "calibrated Warp CPU fixed cost per module"};
      return FixedCost{cpu.without_pch.fixed_ms, "calibrated Warp CPU fixed cost per module (no PCH)"};
    }
  }
  const ModuleEvent* smallest = nullptr;
  for (const ModuleEvent* event : cold_compiled(report)) {
    if (event->built_pch) continue;  // that load also paid for the precompiled header
    if (smallest == nullptr || event->ms < smallest->ms) smallest = event;
  }
  if (smallest == nullptr) return std::nullopt;
  return FixedCost{smallest->ms, fmt::format("upper bound: the smallest module this run built ({} {}, {}; no "
                                             "calibration)",
                                             smallest->name, smallest->hash, format_ms(smallest->ms))};
}

Finding make_finding(const std::string& id) {
  Finding finding;
  finding.id = id;
  finding.title = std::string(mechanism(id).title);
  finding.doc = doc_link(id);
  return finding;
}

void rule_out(Diagnosis& out, const std::string& id, std::string signal) {
  out.ruled_out.push_back({id, std::move(signal)});
}

void not_checked(Diagnosis& out, const std::string& id, std::string reason) {
  out.not_checked.push_back({id, std::move(reason)});
}

std::string format_ms(double ms) {
  if (ms >= 10000.0) return fmt::format("{:.1f} s", ms / 1000.0);
  if (ms >= 10.0) return fmt::format("{:.0f} ms", ms);
  return fmt::format("{:.1f} ms", ms);
}

std::string short_path(const std::string& path) {
  const auto name = std::filesystem::path(path).filename().string();
  const auto parent = std::filesystem::path(path).parent_path().filename().string();
  return parent.empty() ? name : parent + "/" + name;
}

std::string where(const SourceLocation& location) {
  std::string text = fmt::format("{}:{}", short_path(location.file), location.line);
  if (!location.function.empty() && location.function != "<module>") text += " (in " + location.function + ")";
  return text;
}

}  // namespace wcp::analysis
