#include "budget/check_workflow.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "budget/auto_sampling.h"
#include "codec/report_json.h"
#include "errors.h"
#include "io/file_io.h"
#include "stats/noise.h"
#include "verdict/paired_stop.h"

namespace wcp::budget {
namespace {

CommandResult not_run_without_cuda(const CommandEntry& entry) {
  CommandResult skipped;
  skipped.name = entry.name;
  skipped.line = entry.line;
  skipped.device = entry.device;
  skipped.not_run = "needs a CUDA device and this machine has none (set WCP_CUDA_DEVICE=1 to override)";
  return skipped;
}

// Accepting a new normal only makes sense when everything else about the run is acceptable.
void update_baseline(const CommandEntry& entry, const Report& report, CommandResult& result) {
  for (const auto& outcome : result.outcomes) {
    if (outcome.verdict == Verdict::fail) {
      result.baseline_not_written = "budget " + outcome.budget + " failed";
      return;
    }
  }
  if (result.run_failure) {
    result.baseline_not_written = "the command could not be measured";
    return;
  }
  const auto& path = *entry.baseline_report;
  std::filesystem::create_directories(path.parent_path());
  write_file_atomically(path, report_to_json_text(report));
  result.baseline_written = path;
}

// Evaluates `entry` on the runs so far against its baseline (the file's, or the history's),
// with the noise of its earlier runs.
CommandResult judge_entry(const CheckPlan& plan, CheckSteps& steps, const CommandEntry& entry, const Report& report,
                          const std::optional<Report>& file_baseline, EvaluateOptions& options) {
  const EarlierNoise noise = steps.earlier_noise(report);
  options.prior_noise = noise.wall;
  options.prior_cpu_noise = noise.cpu;
  const std::optional<Report> baseline =
      plan.baselines_from_history ? steps.history_baseline(entry, report, options) : file_baseline;
  return evaluate(entry, report, baseline, options);
}

// Arm A at the revision, arm B here, interleaved: the drift between them cancels in each pair,
// which a stored baseline's cannot (issue 63). An entry whose identities did not change is
// decided by them after one pair (verdict/unchanged_compile.h).
CommandResult check_entry_against_revision(const CheckPlan& plan, CheckSteps& steps, const CommandEntry& entry,
                                           const std::string& revision, Report& report) {
  EvaluateOptions options = plan.options;
  options.paired_baseline = true;
  options.updating_baseline = false;  // the revision is the baseline; there is no file to write
  const int most_pairs = entry.auto_samples ? verdict::kMostAutoPairs : entry.samples;
  measure::StopPairs stop;
  if (entry.auto_samples) {
    stop = [&](const measure::AbReports& so_far) {
      auto trial = evaluate(entry, so_far.candidate, so_far.baseline, options);
      return assess_sampling(trial, entry, so_far.candidate, std::nullopt, std::nullopt, &so_far.baseline);
    };
  }
  const measure::AbReports reports =
      steps.measure_against_revision(entry, revision, most_pairs, stop, options.baseline_description);
  report = reports.candidate;
  CommandResult result = evaluate(entry, reports.candidate, reports.baseline, options);
  assess_sampling(result, entry, reports.candidate, std::nullopt, std::nullopt, &reports.baseline);
  if (plan.update_baseline) result.baseline_not_written = "judged against a revision, which has no baseline file";
  return result;
}

CommandResult check_entry(const CheckPlan& plan, CheckSteps& steps, const CommandEntry& entry, Report& report) {
  if (const auto revision = revision_of(plan, entry)) {
    return check_entry_against_revision(plan, steps, entry, *revision, report);
  }
  const auto found = plan.baselines.find(entry.name);
  const std::optional<Report> file_baseline = found == plan.baselines.end() || plan.baselines_from_history
                                                  ? std::nullopt
                                                  : std::optional<Report>(found->second);
  // samples: auto stops once the runs so far decide every budget (budget/auto_sampling.h).
  measure::StopSampling stop;
  if (entry.auto_samples) {
    stop = [&](const Report& so_far) {
      // A new baseline is the level every later check is weighed against: it takes enough runs
      // to measure its own noise, so one slow or fast run never becomes the reference.
      if (plan.update_baseline && entry.baseline_report && so_far.samples < static_cast<int>(kMinimumNoiseSamples))
        return false;
      EvaluateOptions options = plan.options;
      auto trial = judge_entry(plan, steps, entry, so_far, file_baseline, options);
      return assess_sampling(trial, entry, so_far, options.prior_noise, options.prior_cpu_noise);
    };
  }
  report = steps.measure(entry, file_baseline, stop);
  EvaluateOptions options = plan.options;
  auto result = judge_entry(plan, steps, entry, report, file_baseline, options);
  assess_sampling(result, entry, report, options.prior_noise, options.prior_cpu_noise);
  if (plan.update_baseline && entry.baseline_report) update_baseline(entry, report, result);
  return result;
}

}  // namespace

std::optional<std::string> revision_of(const CheckPlan& plan, const CommandEntry& entry) {
  if (plan.baselines_from_history) return std::nullopt;
  if (!plan.against_rev.empty()) return plan.against_rev;
  return entry.baseline_rev;
}

CheckResult run_check_workflow(const CheckPlan& plan, CheckSteps& steps) {
  CheckResult result;
  for (const CommandEntry* entry : plan.selected) {
    if (entry->device == DeviceRequirement::cuda && !plan.cuda_present) {
      result.commands.push_back(not_run_without_cuda(*entry));
      steps.finished(*entry, nullptr, result.commands.back());
      continue;
    }
    Report report;
    result.commands.push_back(check_entry(plan, steps, *entry, report));
    steps.finished(*entry, &report, result.commands.back());
  }
  return result;
}

std::vector<const CommandEntry*> select_entries(const BudgetFile& file, const std::string& only) {
  std::vector<const CommandEntry*> selected;
  std::vector<std::string> names;
  for (const auto& entry : file.commands) {
    if (only.empty() || entry.name == only) selected.push_back(&entry);
    names.push_back(entry.name);
  }
  if (selected.empty()) {
    throw UsageError(
        fmt::format("--only {}: no such command in {} (has: {})", only, file.path.string(), fmt::join(names, ", ")));
  }
  return selected;
}

std::string outcome_word(const CommandResult& result) {
  if (result.run_failure) return "not measured";
  if (result.failed()) return "fail";
  if (result.improved()) return "improved";
  if (result.not_judged()) return "not judged";
  return "pass";
}

}  // namespace wcp::budget
