#include "budget/stable_hashes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "budget/budget_keys.h"

namespace wcp::budget {
namespace {

std::string cause_text(HashCause cause) {
  switch (cause) {
    case HashCause::python_hash_seed:
      return "its hash depends on Python's salted hash() (PYTHONHASHSEED)";
    case HashCause::checkout_path:
      return "its hash depends on the checkout path";
    case HashCause::per_run:
      return "its hash changes in every run (data, time or randomness)";
    case HashCause::stable:
      return "stable";
  }
  return "stable";
}

}  // namespace

BudgetOutcome stable_hashes_budget(const Report& report) {
  BudgetOutcome outcome;
  outcome.budget = std::string(key::stable_hashes);
  outcome.unit = Unit::count;
  outcome.limit = 0.0;
  outcome.verdict = Verdict::fail;
  if (!report.hash_stability) {
    outcome.note = "the hash experiments did not run, so it cannot pass";
    return outcome;
  }
  const HashStability& stability = *report.hash_stability;
  if (!stability.stable) {
    std::vector<std::string> why;
    for (const auto& pass : stability.passes) {
      if (!pass.ok) why.push_back(pass.name + ": " + pass.failure);
    }
    if (!stability.relocation_skipped.empty()) why.push_back("no relocated run: " + stability.relocation_skipped);
    outcome.note = fmt::format("not decided ({}), so it cannot pass", fmt::join(why, "; "));
    return outcome;
  }
  outcome.measured = static_cast<double>(stability.modules.size());
  std::string passes;
  for (const auto& pass : stability.passes) passes += (passes.empty() ? "" : ", ") + pass.name;
  outcome.note = fmt::format("modules whose identity moved across {} ({:.1f} s of experiments)", passes,
                             stability.cost_ms / 1000.0);
  if (!stability.original_path_files.empty()) {
    outcome.note += fmt::format("; the relocated run still loaded kernels from the original path ({})",
                                fmt::join(stability.original_path_files, ", "));
  }
  if (*stability.stable) {
    outcome.verdict = Verdict::pass;
    return outcome;
  }
  for (const auto& module : stability.modules) {
    Offender offender;
    offender.module = module.module;
    offender.detail = to_string(module.cause);
    offender.mechanism = Mechanism::cache_not_reused;
    offender.explanation = cause_text(module.cause) + (module.evidence.empty() ? "" : ": " + module.evidence.front());
    if (!module.fixed_in_warp.empty()) {
      offender.explanation += fmt::format(
          "; Warp {} names this function from a stable digest (upgrade; pinning "
          "PYTHONHASHSEED only masks it)",
          module.fixed_in_warp);
    }
    outcome.offenders.push_back(std::move(offender));
  }
  return outcome;
}

}  // namespace wcp::budget
