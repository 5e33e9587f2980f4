// CS-2: the kernel cache is not reused. The warm pass runs in the cache the cold pass just
// filled; if it did not come out warm (model/queries.h: warm_near_zero) something stops reuse.
// The finding names what the instrumentation saw doing it. A cold-pass rebuild of the same
// identity alone is not enough: parallel cold misses and `__mp_main__` do that with a healthy
// cache (process_findings.cpp), so CS-2 needs the warm pass (or a named cause) to say so.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/diagnose_support.h"
#include "model/rebuilds.h"

namespace wcp::analysis {

void check_cache(const Report& report, const DiagnoseInputs& inputs, Diagnosis& out) {
  const auto& status = report.instrumentation;
  std::vector<std::string> causes;
  for (const auto& clear : status.cache_clears) {
    causes.push_back("the application called " + clear.what +
                     (clear.site ? " at " + short_path(clear.site->file) + ":" + std::to_string(clear.site->line) : ""));
  }
  if (status.cache_kernels_disabled) causes.push_back("warp.config.cache_kernels was False");
  if (status.app_kernel_cache_dir) {
    causes.push_back("the application set warp.config.kernel_cache_dir = " + *status.app_kernel_cache_dir +
                     " (not the cache the tool provided; a per-run directory is never reused)");
  }
  if (inputs.cuda_cache_disabled_env.value_or(false)) {
    causes.push_back("CUDA_CACHE_DISABLE is set in the environment (disables the driver's cache)");
  }

  const std::optional<bool> warm = warm_near_zero(report);
  const auto compiles = warm_compiles(report);
  const double cold = report.cold_module_ms ? report.cold_module_ms->median : 0.0;
  const auto warm_share = [&] {
    const double warm_ms = report.warm_module_ms->median;
    return fmt::format("warm module work {} = {:.1f}% of cold {}", format_ms(warm_ms),
                       cold > 0.0 ? 100.0 * warm_ms / cold : 0.0, format_ms(cold));
  };
  if (!warm && causes.empty()) {
    not_checked(out, Mechanism::cache_not_reused, "no warm run succeeded, so cache reuse could not be observed");
    return;
  }
  if (warm == true && causes.empty()) {
    rule_out(out, Mechanism::cache_not_reused,
             fmt::format("the warm run compiled nothing ({})", report.warm_module_ms ? warm_share() : "no module work"));
    return;
  }
  Finding finding = make_finding(Mechanism::cache_not_reused);
  if (compiles && *compiles > 0) finding.evidence.push_back(fmt::format("the warm run still compiled {} module(s)", *compiles));
  if (report.warm_module_ms && report.cold_module_ms) finding.evidence.push_back(warm_share());
  for (const auto& rebuilt : rebuilt_modules(report)) {
    if (rebuilt.cause != RebuildCause::same_identity) continue;
    finding.evidence.push_back(fmt::format("cold pass: {} ({}) built {} times with the same hash", rebuilt.name,
                                           fmt::join(rebuilt.hashes, ","), rebuilt.builds));
  }
  for (const auto& cause : causes) finding.evidence.push_back(cause);
  if (causes.empty() && !status.attached) {
    finding.evidence.push_back(
        "this report carries no instrumentation, so what the application did to its cache is not recorded: look for "
        "wp.clear_kernel_cache(), warp.config.cache_kernels = False, a per-run warp.config.kernel_cache_dir, or "
        "CUDA_CACHE_DISABLE, or re-measure with this tool to have it named");
  } else if (causes.empty()) {
    finding.evidence.push_back(
        "no cache clear, cache_kernels=False or kernel_cache_dir change was seen: the module hashes may depend on "
        "something that varies per run (a path, a time, a random value)");
  }
  if (warm == false && report.warm_module_ms) {
    finding.cost_ms = report.warm_module_ms->median;
    finding.cost_basis = "warm module work: paid again on every run that should have been cached";
  }
  out.findings.push_back(std::move(finding));
}

}  // namespace wcp::analysis
