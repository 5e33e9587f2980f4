// Budget evaluation is a pure function of (budgets, report, baseline): every budget kind
// passing and failing on crafted reports.
#include <gtest/gtest.h>

#include <algorithm>

#include "budget/evaluate.h"
#include "budget/offenders.h"
#include "report_fixtures.h"

namespace wcp::budget {
namespace {

using testing::clean_report;
using testing::compiled;
using testing::launch_of;

// closure_factory-like: __main__ built three times with three hashes.
Report churn_report() {
  Report report = clean_report();
  report.identities = 3;
  report.module_events = {compiled("__main__", "aaaaaaa", 2500), compiled("__main__", "bbbbbbb", 400),
                          compiled("__main__", "ccccccc", 400)};
  return report;
}

// Returned by value: callers often pass a temporary result.
BudgetOutcome outcome(const CommandResult& result, const std::string& budget) {
  auto it =
      std::find_if(result.outcomes.begin(), result.outcomes.end(), [&](const auto& o) { return o.budget == budget; });
  if (it == result.outcomes.end()) throw std::runtime_error("no outcome " + budget);
  return *it;
}

CommandEntry entry_with(Settings budgets) {
  CommandEntry entry;
  entry.name = "app";
  if (budgets.baseline) entry.baseline_report = *budgets.baseline;
  entry.budgets = std::move(budgets);
  return entry;
}

TEST(BudgetEvaluate, CleanReportPassesEveryBudget) {
  Settings budgets;
  budgets.max_modules = 1;
  budgets.max_identities = 1;
  budgets.cold_seconds = 5.0;
  budgets.compile_elapsed_seconds = 5.0;
  budgets.warm_near_zero = true;
  budgets.max_generated_source_bytes = 50'000;
  budgets.max_lto_artifacts = 0;
  const auto result = evaluate(entry_with(budgets), clean_report(), std::nullopt);
  EXPECT_FALSE(result.failed());
  EXPECT_EQ(result.outcomes.size(), 8u);
  for (const auto& o : result.outcomes) EXPECT_EQ(o.verdict, Verdict::pass) << o.budget;
}

TEST(BudgetEvaluate, RebuildsFailNamedAsIdentityChurn) {
  const auto result = evaluate(entry_with({}), churn_report(), std::nullopt);
  const auto& builds = outcome(result, "max_builds_per_module");
  EXPECT_EQ(builds.verdict, Verdict::fail);
  EXPECT_EQ(builds.measured, 3.0);
  EXPECT_EQ(builds.limit, 1.0);
  ASSERT_EQ(builds.offenders.size(), 1u);
  EXPECT_EQ(builds.offenders[0].module, "__main__");
  EXPECT_NE(builds.offenders[0].detail.find("aaaaaaa bbbbbbb ccccccc"), std::string::npos);
  EXPECT_EQ(builds.offenders[0].rebuild, RebuildCause::identity_churn);
  EXPECT_TRUE(result.failed());
}

TEST(BudgetEvaluate, BlockDimSpreadIsNamedAsSuch) {
  Report report = clean_report();
  auto a = compiled("__main__", "aaaaaaa", 500), b = compiled("__main__", "aaaaaaa", 500);
  a.block_dim = 64;
  b.block_dim = 256;
  report.module_events = {a, b};
  const auto& builds = outcome(evaluate(entry_with({}), report, std::nullopt), "max_builds_per_module");
  EXPECT_EQ(builds.verdict, Verdict::fail);
  EXPECT_EQ(builds.offenders.at(0).rebuild, RebuildCause::block_dim_spread);
  EXPECT_EQ(builds.offenders.at(0).mechanism, Mechanism::block_dim_spread);
}

TEST(BudgetEvaluate, AllowRebuildsExemptsAModuleOnPurpose) {
  Settings budgets;
  budgets.allow_rebuilds = {{"__main__", "sweeps closures on purpose"}};
  const auto result = evaluate(entry_with(budgets), churn_report(), std::nullopt);
  const auto& builds = outcome(result, "max_builds_per_module");
  EXPECT_EQ(builds.verdict, Verdict::pass);
  EXPECT_NE(builds.note.find("sweeps closures on purpose"), std::string::npos);
  budgets.allow_rebuilds.clear();
  budgets.max_builds_per_module = 3;
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), churn_report(), std::nullopt), "max_builds_per_module").verdict,
            Verdict::pass);
}

TEST(BudgetEvaluate, ModuleAndIdentityCeilings) {
  Report report = clean_report();
  report.modules = 3;
  report.identities = 3;
  report.module_events = {compiled("fill_1016810a", "aaaaaaa", 900), compiled("scale_2026810b", "bbbbbbb", 400),
                          compiled("add_3036810c", "ccccccc", 300)};
  Settings budgets;
  budgets.max_modules = 1;
  budgets.max_identities = 2;
  const auto result = evaluate(entry_with(budgets), report, std::nullopt);
  const auto& modules = outcome(result, "max_modules");
  EXPECT_EQ(modules.verdict, Verdict::fail);
  EXPECT_EQ(modules.measured, 3.0);
  ASSERT_EQ(modules.offenders.size(), 3u);
  EXPECT_EQ(modules.offenders[0].module, "fill_1016810a");  // most expensive first
  EXPECT_EQ(modules.offenders[0].mechanism, Mechanism::unique_modules);
  EXPECT_EQ(outcome(result, "max_identities").verdict, Verdict::fail);
}

TEST(BudgetEvaluate, GranularModulesAreExplained) {
  Report report = clean_report();
  report.modules = 2;
  report.module_events = {compiled("feature.a", "aaaaaaa", 900), compiled("feature.b", "bbbbbbb", 400)};
  Settings budgets;
  budgets.max_modules = 1;
  const auto& modules = outcome(evaluate(entry_with(budgets), report, std::nullopt), "max_modules");
  EXPECT_EQ(modules.offenders.at(0).mechanism, Mechanism::granular_modules);
}

TEST(BudgetEvaluate, ColdAndElapsedSeconds) {
  Settings budgets;
  budgets.cold_seconds = 2.0;
  budgets.compile_elapsed_seconds = 4.0;
  const auto result = evaluate(entry_with(budgets), clean_report(3000), std::nullopt);
  const auto& cold = outcome(result, "cold_seconds");
  EXPECT_EQ(cold.verdict, Verdict::fail);
  EXPECT_DOUBLE_EQ(*cold.measured, 3.0);
  EXPECT_EQ(cold.offenders.at(0).module, "__main__");
  EXPECT_EQ(outcome(result, "compile_elapsed_seconds").verdict, Verdict::pass);
}

TEST(BudgetEvaluate, CompileElapsedLeavesOutAWarmRunSlowerThanItsColdRun) {
  Settings budgets;
  budgets.compile_elapsed_seconds = 0.5;
  Report report = clean_report(3000);  // cold wall 3700 ms
  report.sample_results[0].warm_wall_ms = 3900.0;
  report.compile_elapsed_ms = summarize({-200.0});  // would pass a 0.5 s ceiling if credited
  const auto& elapsed = outcome(evaluate(entry_with(budgets), report, std::nullopt), "compile_elapsed_seconds");
  EXPECT_EQ(elapsed.verdict, Verdict::fail);
  EXPECT_FALSE(elapsed.measured.has_value());
  EXPECT_NE(elapsed.note.find("sample 1: warm wall 3900 ms is not below cold wall 3700 ms"), std::string::npos)
      << elapsed.note;
}

TEST(BudgetEvaluate, WarmNearZeroFailsOnWarmCompilesOrWork) {
  Settings budgets;
  budgets.warm_near_zero = true;
  Report report = clean_report(3000);
  report.sample_results[0].warm_compiled_events = 1;
  report.module_events.push_back(compiled("__main__", "aaaaaaa", 10, Pass::warm));
  report.instrumentation.app_kernel_cache_dir = "/tmp/xyz";
  const auto& warm = outcome(evaluate(entry_with(budgets), report, std::nullopt), "warm_near_zero");
  EXPECT_EQ(warm.verdict, Verdict::fail);
  ASSERT_EQ(warm.offenders.size(), 1u);
  EXPECT_EQ(warm.offenders[0].mechanism, Mechanism::cache_not_reused);
  EXPECT_NE(warm.offenders[0].explanation.find("/tmp/xyz"), std::string::npos);

  Report slow = clean_report(3000);
  slow.warm_module_ms = summarize({200.0});  // above max(5% of 3000 ms, 50 ms) = 150 ms
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), slow, std::nullopt), "warm_near_zero").verdict, Verdict::fail);
  Report tiny = clean_report(100);
  tiny.warm_module_ms = summarize({40.0});  // 5% of 100 ms is 5 ms, but the floor is 50 ms
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), tiny, std::nullopt), "warm_near_zero").verdict, Verdict::pass);
}

TEST(BudgetEvaluate, StructuralCeilings) {
  Settings budgets;
  budgets.max_generated_source_bytes = 10'000;
  budgets.max_lto_artifacts = 0;
  Report report = clean_report();
  report.cache.lto_artifacts = 2;
  const auto result = evaluate(entry_with(budgets), report, std::nullopt);
  const auto& source = outcome(result, "max_generated_source_bytes");
  EXPECT_EQ(source.verdict, Verdict::fail);
  EXPECT_EQ(source.offenders.at(0).mechanism, Mechanism::unused_backward);
  EXPECT_EQ(outcome(result, "max_lto_artifacts").verdict, Verdict::fail);
}

TEST(BudgetEvaluate, BaselineBandRegressionAndImprovement) {
  Settings budgets;
  budgets.baseline = "/b.json";
  Report baseline = clean_report(1000);
  baseline.cold_module_ms = summarize({990, 1000, 1010});  // MAD 10 ms: band = max(10, 20) = 20 ms
  // A candidate that compiled other code (a new hash) with the same elapsed time, so only the
  // module-work clock decides.
  auto verdict = [&](double cold_ms, EvaluateOptions options = {}) {
    Report candidate = clean_report(cold_ms);
    candidate.module_events[0].hash = "ccccccc";
    candidate.compile_elapsed_ms = baseline.compile_elapsed_ms;
    return outcome(evaluate(entry_with(budgets), candidate, baseline, options), "baseline").verdict;
  };
  EXPECT_EQ(verdict(1015), Verdict::pass);
  EXPECT_EQ(verdict(1021), Verdict::fail);
  EXPECT_EQ(verdict(985), Verdict::pass);
  EXPECT_EQ(verdict(900), Verdict::improved);
  EvaluateOptions ratchet;
  ratchet.fail_on_improvement = true;
  EXPECT_EQ(verdict(900, ratchet), Verdict::fail);
  EvaluateOptions updating;
  updating.updating_baseline = true;
  EXPECT_EQ(verdict(2000, updating), Verdict::accepted);
  budgets.baseline_tolerance_percent = 150;
  EXPECT_EQ(verdict(2000), Verdict::pass);
}

// One sample on each side measures no noise (a MAD of one value reads 0): only a change beyond
// the gross-change bound is judged, never a 1 % wobble (issue 42).
TEST(BudgetEvaluate, BaselineWithoutMeasuredNoiseJudgesOnlyAGrossChange) {
  Settings budgets;
  budgets.baseline = "/b.json";
  const auto at = [&](double cold_ms) {
    Report candidate = clean_report(cold_ms);
    candidate.module_events[0].hash = "ccccccc";
    candidate.compile_elapsed_ms = clean_report(1000).compile_elapsed_ms;
    return outcome(evaluate(entry_with(budgets), candidate, clean_report(1000)), "baseline");
  };
  ASSERT_TRUE(at(1011).judgement);
  EXPECT_DOUBLE_EQ(*at(1011).judgement->module_work.band_ms, 1000.0 * kGrossChangeBound);
  EXPECT_EQ(at(1011).judgement->module_work.noise.source, NoiseSource::none);
  EXPECT_EQ(at(1011).verdict, Verdict::pass);
  EXPECT_EQ(at(1011).judgement->module_work.samples_to_decide, 3);
  EXPECT_EQ(at(1300).verdict, Verdict::pass);
  EXPECT_EQ(at(1400).verdict, Verdict::fail);
  EXPECT_NE(at(1400).note.find("a gross change"), std::string::npos) << at(1400).note;
}

TEST(BudgetEvaluate, ChangedWorkloadFailsInItsOwnRight) {
  Settings budgets;
  budgets.baseline = "/b.json";
  Report candidate = clean_report(1000);
  testing::launches(candidate).append(launch_of("extra", 8));
  const auto& base = outcome(evaluate(entry_with(budgets), candidate, clean_report(1000)), "baseline");
  EXPECT_EQ(base.verdict, Verdict::fail);
  EXPECT_NE(base.note.find("workload changed"), std::string::npos);
  ASSERT_TRUE(base.judgement);
  EXPECT_EQ(base.judgement->verdict, verdict::Verdict::invalid);

  // Renamed kernels are the same workload: fixes rename and merge modules.
  Report renamed = clean_report(1000);
  testing::launches(renamed) = {};
  testing::launches(renamed).append(launch_of("renamed", 16), 3);
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), renamed, clean_report(1000)), "baseline").verdict, Verdict::pass);
  Report reshaped = clean_report(1000);
  testing::launches(reshaped) = {};
  testing::launches(reshaped).append(launch_of("k", 32), 3);
  const auto reshaped_outcome = outcome(evaluate(entry_with(budgets), reshaped, clean_report(1000)), "baseline");
  EXPECT_EQ(reshaped_outcome.verdict, Verdict::fail);
  EXPECT_EQ(reshaped_outcome.judgement->workload.first_divergence->index, 0u);
}

TEST(BudgetEvaluate, UnmeasuredRunFailsWithTheReason) {
  Report report;
  report.samples = 1;
  report.failed_samples = 1;
  SampleResult sample;
  sample.failure = "exit code 1: ModuleNotFoundError";
  report.sample_results = {sample};
  const auto result = evaluate(entry_with({}), report, std::nullopt);
  EXPECT_TRUE(result.failed());
  EXPECT_NE(result.run_failure.value_or("").find("ModuleNotFoundError"), std::string::npos);
}

TEST(BudgetEvaluate, DiagnosisFindingExplainsTheOffender) {
  std::vector<Offender> offenders(3);
  offenders[0].module = "__main__";
  offenders[0].rebuild = RebuildCause::identity_churn;
  offenders[1].module = "feature.a";
  offenders[2].module = "other";
  offenders[2].explanation = "kept";
  analysis::Diagnosis diagnosis;
  analysis::Finding late;
  late.mechanism = Mechanism::late_kernel;
  late.fix = "define all kernels before the first launch";
  late.module = "__main__";
  analysis::Finding split;
  split.mechanism = Mechanism::granular_modules;
  split.module = "feature";
  diagnosis.findings = {late, split};
  attach_findings(offenders, diagnosis);
  EXPECT_EQ(offenders[0].mechanism, Mechanism::late_kernel);
  EXPECT_EQ(offenders[0].rebuild, RebuildCause::identity_churn);
  EXPECT_EQ(offenders[0].fix, "define all kernels before the first launch");
  EXPECT_EQ(offenders[1].mechanism, Mechanism::granular_modules);
  EXPECT_FALSE(offenders[2].mechanism);
  EXPECT_EQ(offenders[2].explanation, "kept");
}

TEST(BudgetEvaluate, NotRunIsNeitherPassNorFail) {
  CheckResult check;
  CommandResult skipped;
  skipped.not_run = "needs a CUDA device";
  check.commands = {skipped};
  EXPECT_FALSE(check.failed());
  EXPECT_TRUE(check.all_not_run());
}

}  // namespace
}  // namespace wcp::budget
