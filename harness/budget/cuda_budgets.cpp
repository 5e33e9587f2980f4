#include "budget/cuda_budgets.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <utility>

#include "budget/budget_keys.h"

namespace wcp::budget {
namespace {
// Named apart: a unity build shares one anonymous namespace between the files of a batch.
namespace cuda_budget_impl {

// How many modules of an arch over its total a failure lists: enough to act on.
constexpr std::size_t kTopModules = 3;
// A build's error is named on one line; the full text is in the report.
constexpr std::size_t kErrorChars = 200;

std::string arch_name(int arch) {
  return fmt::format("sm_{}", arch);
}

std::string kernel_name(const CudaKernelCost& kernel) {
  return kernel.kernel.empty() ? kernel.mangled : kernel.kernel;
}

// "backward 4871 ms + forward 817 ms": the larger part first, as the ranking prints it.
std::string kernel_parts(const CudaKernelCost& kernel) {
  const auto forward = kernel.forward_ms();
  const auto backward = kernel.backward_ms();
  if (forward && backward) return fmt::format("backward {:.0f} ms + forward {:.0f} ms", *backward, *forward);
  if (backward) return fmt::format("backward {:.0f} ms", *backward);
  if (forward) return fmt::format("forward {:.0f} ms", *forward);
  return "not timed";
}

const CudaKernelCost* costliest_kernel(const CudaModuleBuild& build) {
  const CudaKernelCost* costliest = nullptr;
  for (const auto& kernel : build.kernels) {
    if (kernel.total_ms() && (!costliest || *kernel.total_ms() > *costliest->total_ms())) costliest = &kernel;
  }
  return costliest;
}

// "; costliest kernel heavy: backward 4871 ms + forward 817 ms", or why there is none.
std::string costliest_kernel_text(const CudaModuleBuild& build) {
  if (const CudaKernelCost* kernel = costliest_kernel(build))
    return fmt::format("; costliest kernel {}: {}", kernel_name(*kernel), kernel_parts(*kernel));
  if (!build.trace_unavailable.empty()) return "; no kernel costs (" + build.trace_unavailable + ")";
  return "";
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > kErrorChars) line = line.substr(0, kErrorChars) + "…";
  return line;
}

// A failed build has no cost to read: it is no cheap build, so it fails the budget, named.
Offender failed_offender(const CudaModuleBuild& build) {
  Offender offender;
  offender.module = build.module;
  offender.detail =
      fmt::format("{}, hash {}: the CUDA build failed: {}", arch_name(build.arch), build.hash, first_line(build.error));
  offender.explanation = "a CUDA build that failed has no cost to hold to the limit, so it cannot pass";
  return offender;
}

// What one arch built, and why there is nothing to read for it.
struct ArchBuilds {
  int arch = 0;
  std::vector<const CudaModuleBuild*> builds;
  std::string missing;  // "" when the arch has builds
};

ArchBuilds builds_for(const CudaBuildRun& run, int arch) {
  ArchBuilds found;
  found.arch = arch;
  for (const auto& build : run.modules) {
    if (build.arch == arch) found.builds.push_back(&build);
  }
  std::stable_sort(found.builds.begin(), found.builds.end(),
                   [](const auto* a, const auto* b) { return a->cpu_ms.value_or(0.0) > b->cpu_ms.value_or(0.0); });
  if (std::find(run.archs.begin(), run.archs.end(), arch) == run.archs.end()) {
    std::vector<std::string> built;
    for (const int other : run.archs) built.push_back(arch_name(other));
    found.missing = fmt::format("{} was not built in this run (built: {})", arch_name(arch),
                                built.empty() ? std::string("none") : fmt::format("{}", fmt::join(built, ", ")));
  } else if (found.builds.empty()) {
    found.missing =
        fmt::format("no module was built for {} (no process reached its exit with a module loaded)", arch_name(arch));
  }
  return found;
}

// One CUDA budget being decided: what was measured, what keeps it from being read, who is over.
struct Tally {
  std::optional<double> worst;                    // in the outcome's unit
  std::vector<std::string> missing;               // why a part of it was not measured
  std::vector<Offender> failed;                   // builds that failed
  std::vector<std::pair<double, Offender>> over;  // over the limit, with the value that orders them

  void measured(double value) { worst = std::max(worst.value_or(value), value); }
};

BudgetOutcome outcome_of(std::string_view budget, double limit, Unit unit, Tally tally,
                         const std::string& measured_note) {
  BudgetOutcome outcome;
  outcome.budget = std::string(budget);
  outcome.limit = limit;
  outcome.unit = unit;
  // Missing is not zero: a part not measured, or a build that failed, leaves no value that can pass.
  std::vector<std::string> reasons = tally.missing;
  if (!tally.failed.empty()) reasons.push_back(fmt::format("{} CUDA build(s) failed", tally.failed.size()));
  std::stable_sort(tally.over.begin(), tally.over.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (auto& failed : tally.failed) outcome.offenders.push_back(std::move(failed));
  for (auto& over : tally.over) outcome.offenders.push_back(std::move(over.second));
  if (!tally.worst && reasons.empty()) reasons.push_back("nothing was measured");
  if (reasons.empty()) {
    outcome.measured = tally.worst;
    outcome.verdict = *tally.worst <= limit ? Verdict::pass : Verdict::fail;
    outcome.note = measured_note;
  } else {
    outcome.verdict = Verdict::fail;
    outcome.note = fmt::format("unavailable: {}; so it cannot pass", fmt::join(reasons, "; "));
  }
  return outcome;
}

// A report with no CUDA build to read says so for every budget on it.
std::string why_no_cuda_build(const Report& report) {
  if (!report.cuda_build)
    return "the run has no CUDA build (measured with cuda_arch / `measure --cuda-arch`; a report before schema 16 "
           "has none)";
  if (!report.cuda_build->unavailable.empty())
    return "the CUDA build was unavailable: " + report.cuda_build->unavailable;
  return "";
}

std::string format_limit(double value, std::string_view unit) {
  return fmt::format("{:g} {}", value, unit);
}

// Per arch, the median over samples of the summed CUDA compile CPU time.
BudgetOutcome compile_seconds(double limit, const std::vector<ArchBuilds>& archs, const Report& report) {
  Tally tally;
  std::vector<std::string> values;
  for (const auto& arch : archs) {
    if (!arch.missing.empty()) {
      tally.missing.push_back(arch.missing);
      continue;
    }
    for (const auto* build : arch.builds) {
      if (!build->error.empty()) tally.failed.push_back(failed_offender(*build));
    }
    const auto summary = report.cuda_compile_cpu_ms.find(arch.arch);
    if (summary == report.cuda_compile_cpu_ms.end()) {
      tally.missing.push_back(fmt::format("no CUDA build for {} was timed", arch_name(arch.arch)));
      continue;
    }
    const double seconds = summary->second.median / 1000.0;
    tally.measured(seconds);
    values.push_back(fmt::format("{} {:.2f} s", arch_name(arch.arch), seconds));
    if (seconds <= limit) continue;
    // The arch is over: its costliest modules, the first with the arch's total.
    std::size_t listed = 0;
    for (const auto* build : arch.builds) {
      if (!build->error.empty() || !build->cpu_ms) continue;
      if (listed++ >= kTopModules) break;
      Offender offender;
      offender.module = build->module;
      offender.detail =
          fmt::format("{}{}, hash {}, {:.2f} s CPU{}", arch_name(arch.arch),
                      listed == 1 ? fmt::format(" {:.2f} s > {}; costliest module", seconds, format_limit(limit, "s"))
                                  : std::string(),
                      build->hash, *build->cpu_ms / 1000.0, costliest_kernel_text(*build));
      tally.over.emplace_back(seconds, std::move(offender));  // the stable sort keeps the arch's order
    }
  }
  return outcome_of(key::max_cuda_compile_seconds, limit, Unit::seconds, std::move(tally),
                    fmt::format("median CUDA compile CPU over samples: {}", fmt::join(values, ", ")));
}

// Each module build of every arch that was measured, to `visit(arch, build)`: an arch not
// measured and a failed build go to the tally instead (neither is a cheap build).
template <typename Visit>
void each_built_module(const std::vector<ArchBuilds>& archs, Tally& tally, Visit visit) {
  for (const auto& arch : archs) {
    if (!arch.missing.empty()) {
      tally.missing.push_back(arch.missing);
      continue;
    }
    for (const auto* build : arch.builds) {
      if (!build->error.empty()) {
        tally.failed.push_back(failed_offender(*build));
        continue;
      }
      visit(arch.arch, build);
    }
  }
}

// Each module build's CPU time, from the first sample's CUDA build.
BudgetOutcome module_seconds(double limit, const std::vector<ArchBuilds>& archs) {
  Tally tally;
  std::string costliest;
  each_built_module(archs, tally, [&](int arch, const CudaModuleBuild* build) {
    if (!build->cpu_ms) {
      tally.missing.push_back(fmt::format("{} {} {} was not timed", arch_name(arch), build->module, build->hash));
      return;
    }
    const double seconds = *build->cpu_ms / 1000.0;
    if (!tally.worst || seconds > *tally.worst)
      costliest = fmt::format("{} {} {}", arch_name(arch), build->module, build->hash);
    tally.measured(seconds);
    if (seconds <= limit) return;
    Offender offender;
    offender.module = build->module;
    offender.detail = fmt::format("{}, hash {}, block_dim {}: {:.2f} s CPU > {}{}", arch_name(arch), build->hash,
                                  build->block_dim, seconds, format_limit(limit, "s"), costliest_kernel_text(*build));
    tally.over.emplace_back(seconds, std::move(offender));
  });
  return outcome_of(key::max_module_cuda_compile_seconds, limit, Unit::seconds, std::move(tally),
                    "the costliest module's CUDA build (first sample): " + costliest);
}

// Each kernel's NVRTC time, forward and backward together; the outcome is in seconds like the
// other timings, the note and offenders in the key's milliseconds.
BudgetOutcome kernel_ms(double limit_ms, const std::vector<ArchBuilds>& archs) {
  Tally tally;
  std::string costliest;
  double costliest_ms = 0.0;
  each_built_module(archs, tally, [&](int arch, const CudaModuleBuild* build) {
    if (!build->trace_unavailable.empty()) {
      tally.missing.push_back(fmt::format("{} {} {} has no kernel costs: {}", arch_name(arch), build->module,
                                          build->hash, build->trace_unavailable));
      return;
    }
    for (const auto& kernel : build->kernels) {
      const auto total = kernel.total_ms();
      if (!total) continue;
      if (!tally.worst || *total > costliest_ms) {
        costliest_ms = *total;
        costliest = fmt::format("{} ({} {}, {}): {:.0f} ms = {}", kernel_name(kernel), build->module, build->hash,
                                arch_name(arch), *total, kernel_parts(kernel));
      }
      tally.measured(*total / 1000.0);
      if (*total <= limit_ms) continue;
      Offender offender;
      offender.module = build->module;
      offender.detail =
          fmt::format("kernel {} ({}, hash {}): {} = {:.0f} ms > {}", kernel_name(kernel), arch_name(arch), build->hash,
                      kernel_parts(kernel), *total, format_limit(limit_ms, "ms"));
      tally.over.emplace_back(*total, std::move(offender));
    }
  });
  if (!tally.worst && tally.missing.empty() && tally.failed.empty())
    tally.missing.push_back("no kernel was timed in the CUDA build's traces");
  return outcome_of(key::max_kernel_cuda_compile_ms, limit_ms / 1000.0, Unit::seconds, std::move(tally),
                    "costliest kernel " + costliest);
}

BudgetOutcome output_bytes(std::uint64_t limit, const std::vector<ArchBuilds>& archs) {
  Tally tally;
  std::vector<std::string> values;
  for (const auto& arch : archs) {
    if (!arch.missing.empty()) {
      tally.missing.push_back(arch.missing);
      continue;
    }
    long long total = 0;
    bool complete = true;
    for (const auto* build : arch.builds) {
      if (!build->error.empty()) {
        tally.failed.push_back(failed_offender(*build));
        complete = false;
      } else if (!build->output_bytes) {
        tally.missing.push_back(
            fmt::format("{} {} {} wrote no output", arch_name(arch.arch), build->module, build->hash));
        complete = false;
      } else {
        total += *build->output_bytes;
      }
    }
    if (!complete) continue;
    const auto bytes = static_cast<double>(total);
    tally.measured(bytes);
    values.push_back(fmt::format("{} {} bytes", arch_name(arch.arch), total));
    if (bytes <= static_cast<double>(limit)) continue;
    auto largest = arch.builds;
    std::stable_sort(largest.begin(), largest.end(), [](const auto* a, const auto* b) {
      return a->output_bytes.value_or(0) > b->output_bytes.value_or(0);
    });
    for (std::size_t i = 0; i < largest.size() && i < kTopModules; ++i) {
      const auto* build = largest[i];
      Offender offender;
      offender.module = build->module;
      offender.detail =
          fmt::format("{}{}, hash {}: {} bytes of {}", arch_name(arch.arch),
                      i == 0 ? fmt::format(" {} bytes > {} bytes; largest module", total, limit) : std::string(),
                      build->hash, build->output_bytes.value_or(0), build->output_kind);
      tally.over.emplace_back(bytes, std::move(offender));
    }
  }
  return outcome_of(key::max_cuda_output_bytes, static_cast<double>(limit), Unit::bytes, std::move(tally),
                    fmt::format("CUDA output per arch: {}", fmt::join(values, ", ")));
}

}  // namespace cuda_budget_impl
}  // namespace

std::vector<BudgetOutcome> cuda_budget_outcomes(const CommandEntry& entry, const Report& report) {
  using namespace cuda_budget_impl;
  const Settings& budgets = entry.budgets;
  std::vector<BudgetOutcome> outcomes;
  if (!budgets.max_cuda_compile_seconds && !budgets.max_module_cuda_compile_seconds &&
      !budgets.max_kernel_cuda_compile_ms && !budgets.max_cuda_output_bytes)
    return outcomes;
  std::vector<int> asked = entry.cuda_archs;
  if (asked.empty() && report.cuda_build) asked = report.cuda_build->archs;
  std::vector<ArchBuilds> archs;
  std::string nothing = why_no_cuda_build(report);
  if (nothing.empty() && asked.empty()) nothing = "no CUDA architecture was asked for (cuda_arch)";
  if (nothing.empty()) {
    for (const int arch : asked) archs.push_back(builds_for(*report.cuda_build, arch));
  } else {
    // One reason for every budget: the build is missing as a whole.
    archs.push_back({0, {}, nothing});
  }
  if (budgets.max_cuda_compile_seconds)
    outcomes.push_back(compile_seconds(*budgets.max_cuda_compile_seconds, archs, report));
  if (budgets.max_module_cuda_compile_seconds)
    outcomes.push_back(module_seconds(*budgets.max_module_cuda_compile_seconds, archs));
  if (budgets.max_kernel_cuda_compile_ms) outcomes.push_back(kernel_ms(*budgets.max_kernel_cuda_compile_ms, archs));
  if (budgets.max_cuda_output_bytes) outcomes.push_back(output_bytes(*budgets.max_cuda_output_bytes, archs));
  return outcomes;
}

}  // namespace wcp::budget
