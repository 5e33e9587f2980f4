// CS-2: the kernel cache is not reused. The warm pass runs in the cache the cold pass just
// filled; if it still compiles (or spends a large share of the cold module time) something
// stops reuse. The finding names what the instrumentation saw doing it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/diagnose_support.h"
#include "analysis/rebuilds.h"

namespace wcp::analysis {
namespace {

// Warm module work above this share of cold module work means the cache was not reused.
constexpr double kWarmShareLimit = 0.25;
// Below this much warm module work a share is noise (cached loads cost a few ms each).
constexpr double kWarmFloorMs = 20.0;

int warm_compiles(const Report& report) {
  int count = 0;
  for (const auto& event : report.module_events) count += event.label == "warm" && event.status == LoadStatus::compiled;
  if (count == 0) {
    for (const auto& sample : report.sample_results) count = std::max(count, sample.warm_compiled_events.value_or(0));
  }
  return count;
}

bool warm_measured(const Report& report) {
  return std::any_of(report.sample_results.begin(), report.sample_results.end(),
                     [](const SampleResult& sample) { return sample.warm_wall_ms.has_value(); }) ||
         !report.warm_module_ms.values.empty();
}

}  // namespace

void check_cache(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const auto& probe = report.instrumentation;
  std::vector<std::string> same_identity;
  for (const auto& rebuilt : rebuilt_modules(report)) {
    if (rebuilt.cause == RebuildCause::same_identity) {
      same_identity.push_back(fmt::format("{} ({}) built {} times with the same hash", rebuilt.name,
                                          fmt::join(rebuilt.hashes, ","), rebuilt.builds));
    }
  }
  if (!warm_measured(report) && same_identity.empty()) {
    not_checked(out, "CS-2", "no warm run succeeded, so cache reuse could not be observed");
    return;
  }
  const int compiles = warm_compiles(report);
  const double warm = report.warm_module_ms.median, cold = report.cold_module_ms.median;
  const bool large_share = warm > kWarmFloorMs && cold > 0.0 && warm > kWarmShareLimit * cold;
  if (compiles == 0 && !large_share && same_identity.empty()) {
    rule_out(out, "CS-2",
             fmt::format("the warm run compiled nothing (warm module work {} = {:.1f}% of cold)", format_ms(warm),
                         cold > 0.0 ? 100.0 * warm / cold : 0.0));
    return;
  }
  Finding finding = make_finding("CS-2");
  if (compiles > 0) finding.evidence.push_back(fmt::format("the warm run still compiled {} module(s)", compiles));
  if (warm_measured(report)) {
    finding.evidence.push_back(fmt::format("warm module work {} = {:.0f}% of cold {}", format_ms(warm),
                                           cold > 0.0 ? 100.0 * warm / cold : 0.0, format_ms(cold)));
  }
  for (const auto& line : same_identity) finding.evidence.push_back("cold pass: " + line);
  bool cause_named = false;
  for (const auto& clear : probe.cache_clears) {
    finding.evidence.push_back("the application called " + clear);
    cause_named = true;
  }
  if (probe.cache_kernels_disabled) {
    finding.evidence.push_back("warp.config.cache_kernels was False");
    cause_named = true;
  }
  if (probe.app_kernel_cache_dir) {
    finding.evidence.push_back("the application set warp.config.kernel_cache_dir = " + *probe.app_kernel_cache_dir +
                               " (not the cache the tool provided; a per-run directory is never reused)");
    cause_named = true;
  }
  if (inputs.cuda_cache_disabled_env.value_or(false)) {
    finding.evidence.push_back("CUDA_CACHE_DISABLE is set in the environment (disables the driver's cache)");
    cause_named = true;
  }
  if (!cause_named) {
    finding.evidence.push_back(
        "no cache clear, cache_kernels=False or kernel_cache_dir change was seen: the module "
        "hashes may depend on something that varies per run (a path, a time, a random value)");
  }
  if (warm_measured(report) && compiles > 0) {
    finding.cost_ms = warm;
    finding.cost_basis = "warm module work: paid again on every run that should have been cached";
  }
  finding.fix =
      "Leave warp.config.kernel_cache_dir, cache_kernels and the kernel cache alone in the application; "
      "point WARP_CACHE_PATH at a persistent directory instead of clearing or replacing the cache.";
  finding.limits =
      "In CI or containers the cache must also be persisted between jobs (cache the directory), or "
      "every job starts cold regardless of the application.";
  out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
