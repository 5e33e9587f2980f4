// CS-12: the precompiled header. On the CPU backend the first module of every process also
// builds a precompiled header (a one-off the report marks, never a per-module cost); on CUDA
// below toolkit 13 turning the header off makes every module pay for Warp's runtime header.
#include <fmt/format.h>

#include "analysis/diagnose_support.h"

namespace wcp::analysis {
namespace {
constexpr std::size_t kManyModules = 5;
}  // namespace

void check_precompiled_header(const Report& report, Diagnosis& out) {
  const auto& probe = report.instrumentation;
  std::string state = probe.use_precompiled_headers ? (*probe.use_precompiled_headers ? "on" : "off") : "unknown";
  out.facts.push_back(fmt::format("Precompiled header (CS-12): use_precompiled_headers = {}; CUDA toolkit {}.", state,
                                  probe.cuda_toolkit_version.empty() ? "unknown" : probe.cuda_toolkit_version));
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->built_pch) continue;
    out.facts.push_back(fmt::format(
        "Module {} ({}) also built the process's precompiled header: its {} is mostly that one-off cost, not the "
        "module's size; later small modules cost far less. Estimates here never use it as a per-module cost.",
        event->name, event->hash, format_ms(event->ms)));
  }
  const auto compiled = cold_compiled_events(report);
  const bool cuda = loads_on_cuda(report);
  int major = 0;
  try {
    major = probe.cuda_toolkit_version.empty() ? 0 : std::stoi(probe.cuda_toolkit_version);
  } catch (const std::exception&) {
    major = 0;
  }
  if (!cuda) {
    rule_out(out, Mechanism::precompiled_header, "the CPU backend builds its header once per process (see Facts); nothing to change");
    return;
  }
  if (major >= 13) {
    rule_out(
        out, Mechanism::precompiled_header,
        fmt::format("CUDA toolkit {}: the precompiled header setting does nothing there", probe.cuda_toolkit_version));
    return;
  }
  if (probe.use_precompiled_headers == false && compiled.size() >= kManyModules) {
    Finding finding = make_finding(Mechanism::precompiled_header);
    finding.evidence.push_back(fmt::format("use_precompiled_headers is False with {} CUDA module builds (toolkit {})",
                                           compiled.size(), probe.cuda_toolkit_version));
    out.findings.push_back(std::move(finding));
    return;
  }
  rule_out(
      out, Mechanism::precompiled_header,
      fmt::format("use_precompiled_headers = {} with {} module build(s): a sensible setting", state, compiled.size()));
}

}  // namespace wcp::analysis
