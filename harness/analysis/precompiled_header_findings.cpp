// CS-12: the precompiled header, in both directions. The header is built once per process (by
// its first build) and makes every later build of that process cheaper. Turned off in a
// process that builds many modules, every one of them compiles Warp's headers itself; left on
// in a process that builds one or two, the header can cost more than it saves. On CUDA below
// toolkit 13 the same holds for NVRTC's header; from 13 on the setting does nothing there.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/diagnose_support.h"
#include "io/units.h"

namespace wcp::analysis {
namespace {

constexpr std::size_t kManyModules = 5;    // CUDA builds: where the header clearly pays
constexpr std::size_t kManyCpuBuilds = 3;  // CPU builds in one process with the header off
constexpr std::size_t kFewCpuBuilds = 2;   // CPU builds in one process that may not repay it

// The most CPU builds any one process made, and that process (0 when the loads carry no pid).
std::pair<std::size_t, int> busiest_cpu_process(const Report& report) {
  std::map<int, std::size_t> builds;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (event->device != "cpu") continue;
    ++builds[event->detail ? event->detail->pid : 0];
  }
  std::pair<std::size_t, int> busiest{0, 0};
  for (const auto& [pid, count] : builds) {
    if (count > busiest.first) busiest = {count, pid};
  }
  return busiest;
}

std::string process_text(int pid) {
  return pid != 0 ? fmt::format("process {}", pid) : "the process";
}

// Header off, many CPU builds: each pays for Warp's headers.
void check_cpu_header_off(std::size_t builds, int pid, const std::optional<HeaderCosts>& costs, Diagnosis& out) {
  if (builds < kManyCpuBuilds) {
    rule_out(out, Mechanism::precompiled_header,
             fmt::format("use_precompiled_headers is False and {} built {} CPU module(s): too few for the header to "
                         "pay",
                         process_text(pid), builds));
    return;
  }
  Finding finding = make_finding(Mechanism::precompiled_header);
  finding.evidence.push_back(fmt::format(
      "use_precompiled_headers is False and {} built {} CPU modules: each compiled Warp's runtime headers itself",
      process_text(pid), builds));
  if (costs) {
    const double saving =
        static_cast<double>(builds) * (costs->fixed_without_ms - costs->fixed_with_ms) - costs->build_ms;
    if (saving <= 0.0) {
      rule_out(out, Mechanism::precompiled_header,
               fmt::format("use_precompiled_headers is False with {} CPU builds, and on this machine the header ({}) "
                           "would cost more than it saves ({} per module): off is right here",
                           builds, milliseconds_text(costs->build_ms),
                           milliseconds_text(costs->fixed_without_ms - costs->fixed_with_ms)));
      return;
    }
    finding.cost_ms = saving;
    finding.cost_estimated = true;
    finding.cost_basis =
        fmt::format("estimate: {} builds × ({} without − {} with the header per module) − {} to build it once; {}",
                    builds, milliseconds_text(costs->fixed_without_ms), milliseconds_text(costs->fixed_with_ms),
                    milliseconds_text(costs->build_ms), costs->basis);
  } else {
    finding.cost_basis =
        "not computable from one run: `calibrate --warp-cpu` measures the header and the per-module saving on this "
        "machine, or `ab` the program with the setting on and off";
  }
  finding.fix =
      "Turn the header back on: remove the line that sets warp.config.use_precompiled_headers = False (it "
      "is on by default), so the first CPU build of each process makes the header and every later one reuses "
      "it.";
  out.findings.push_back(std::move(finding));
}

// Header on, one or two CPU builds: the header may cost more than it saves.
void check_cpu_header_on(std::size_t builds, int pid, const std::optional<HeaderCosts>& costs, Diagnosis& out) {
  if (builds > kFewCpuBuilds) {
    rule_out(out, Mechanism::precompiled_header,
             fmt::format("use_precompiled_headers is on and {} built {} CPU modules: the header is reused",
                         process_text(pid), builds));
    return;
  }
  if (!costs) {
    not_checked(out, Mechanism::precompiled_header,
                fmt::format("{} built only {} CPU module(s), so the header may cost more than it saves; whether it "
                            "does needs this machine's header costs: run `warp-compile-probe calibrate --warp-cpu`",
                            process_text(pid), builds));
    return;
  }
  const double with = costs->build_ms + static_cast<double>(builds) * costs->fixed_with_ms;
  const double without = static_cast<double>(builds) * costs->fixed_without_ms;
  if (with <= without) {
    rule_out(out, Mechanism::precompiled_header,
             fmt::format("{} CPU build(s) with the header cost an estimated {} against {} without: on is right", builds,
                         milliseconds_text(with), milliseconds_text(without)));
    return;
  }
  Finding finding = make_finding(Mechanism::precompiled_header);
  finding.evidence.push_back(fmt::format(
      "use_precompiled_headers is on and {} built only {} CPU module(s): the header was built and reused by at most {} "
      "more",
      process_text(pid), builds, builds - 1));
  finding.evidence.push_back(fmt::format("on this machine: header {} + {} × {} with it = {}; {} × {} without = {}",
                                         milliseconds_text(costs->build_ms), builds,
                                         milliseconds_text(costs->fixed_with_ms), milliseconds_text(with), builds,
                                         milliseconds_text(costs->fixed_without_ms), milliseconds_text(without)));
  finding.cost_ms = with - without;
  finding.cost_estimated = true;
  finding.cost_basis = "estimate from the calibration (" + costs->basis + "); verify with `ab` on the two settings";
  finding.fix =
      "For this program the header costs more than it saves: set warp.config.use_precompiled_headers = False "
      "at the entry point, before the first module loads.";
  finding.limits =
      "Worth it only while the program builds this few CPU modules per process; a program that grows "
      "more modules wants the header back. Cold starts only: a warm run builds nothing either way.";
  out.findings.push_back(std::move(finding));
}

void check_cuda_header(const Report& report, Diagnosis& out) {
  const auto& probe = report.instrumentation;
  int major = 0;
  try {
    major = probe.cuda_toolkit_version.empty() ? 0 : std::stoi(probe.cuda_toolkit_version);
  } catch (const std::exception&) {
    major = 0;
  }
  if (major >= 13) {
    rule_out(
        out, Mechanism::precompiled_header,
        fmt::format("CUDA toolkit {}: the precompiled header setting does nothing there", probe.cuda_toolkit_version));
    return;
  }
  const auto compiled = cold_compiled_events(report);
  if (probe.use_precompiled_headers == false && compiled.size() >= kManyModules) {
    Finding finding = make_finding(Mechanism::precompiled_header);
    finding.evidence.push_back(fmt::format("use_precompiled_headers is False with {} CUDA module builds (toolkit {})",
                                           compiled.size(), probe.cuda_toolkit_version));
    out.findings.push_back(std::move(finding));
    return;
  }
  rule_out(out, Mechanism::precompiled_header,
           fmt::format("use_precompiled_headers = {} with {} module build(s): a sensible setting",
                       probe.use_precompiled_headers ? (*probe.use_precompiled_headers ? "on" : "off") : "unknown",
                       compiled.size()));
}

}  // namespace

void check_precompiled_header(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const auto& probe = report.instrumentation;
  const std::string state = probe.use_precompiled_headers ? (*probe.use_precompiled_headers ? "on" : "off") : "unknown";
  out.facts.push_back(fmt::format("Precompiled header (CS-12): use_precompiled_headers = {}; CUDA toolkit {}.", state,
                                  probe.cuda_toolkit_version.empty() ? "unavailable" : probe.cuda_toolkit_version));
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->built_pch) continue;
    out.facts.push_back(fmt::format(
        "Module {} ({}) also built the process's precompiled header: its {} is mostly that one-off cost, not the "
        "module's size; later small modules cost far less. Estimates here never use it as a per-module cost.",
        event->name, event->hash, milliseconds_text(event->ms)));
  }
  if (loads_on_cuda(report)) {
    check_cuda_header(report, out);
    return;
  }
  const auto [builds, pid] = busiest_cpu_process(report);
  if (builds == 0) {
    not_checked(out, Mechanism::precompiled_header,
                report.loads_observed ? "no CPU module was compiled" : "module loads were not observed in this run");
    return;
  }
  if (!probe.use_precompiled_headers) {
    not_checked(out, Mechanism::precompiled_header,
                "the setting was not recorded (no instrumentation, or no process reached its exit)");
    return;
  }
  if (*probe.use_precompiled_headers) {
    check_cpu_header_on(builds, pid, inputs.cpu_header, out);
  } else {
    check_cpu_header_off(builds, pid, inputs.cpu_header, out);
  }
}

}  // namespace wcp::analysis
