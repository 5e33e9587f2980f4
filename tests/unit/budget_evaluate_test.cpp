// Budget evaluation is a pure function of (budgets, report, baseline): every budget kind
// passing and failing on crafted reports.
#include <gtest/gtest.h>

#include <algorithm>

#include "budget/baseline_compare.h"
#include "budget/evaluate.h"
#include "budget/offenders.h"

namespace wcp::budget {
namespace {

ModuleEvent compiled(const std::string& name, const std::string& hash, double ms, const std::string& pass = "cold") {
  ModuleEvent event;
  event.name = name;
  event.hash = hash;
  event.device = "cpu";
  event.ms = ms;
  event.status = LoadStatus::compiled;
  event.label = pass;
  return event;
}

Launch launch_of(const std::string& kernel, std::int64_t n) {
  Launch launch;
  launch.kernel = kernel;
  launch.module = "__main__";
  launch.dim = {n};
  launch.device = "cpu";
  return launch;
}

// One clean sample: one module, built once, cached on the warm run.
Report clean_report(double cold_ms = 3000.0) {
  Report report;
  report.samples = 1;
  SampleResult sample;
  sample.cold_ok = true;
  sample.cold_module_ms = cold_ms;
  sample.warm_module_ms = 3.0;
  sample.warm_compiled_events = 0;
  report.sample_results = {sample};
  report.cold_module_ms = summarize({cold_ms});
  report.warm_module_ms = summarize({3.0});
  report.compile_elapsed_ms = summarize({cold_ms + 200.0});
  report.modules = 1;
  report.identities = 1;
  report.module_events = {compiled("__main__", "aaaaaaa", cold_ms)};
  report.cache.generated_source_bytes = 20'000;
  report.cache.modules = {{"wp___main___aaaaaaa", 20'000, 1, 1}};
  append_launch(report.launches, launch_of("k", 16), 3);
  return report;
}

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
  auto it = std::find_if(result.outcomes.begin(), result.outcomes.end(), [&](const auto& o) { return o.budget == budget; });
  if (it == result.outcomes.end()) throw std::runtime_error("no outcome " + budget);
  return *it;
}

CommandEntry entry_with(Budgets budgets) {
  CommandEntry entry;
  entry.name = "app";
  entry.budgets = std::move(budgets);
  return entry;
}

TEST(BudgetEvaluate, CleanReportPassesEveryBudget) {
  Budgets budgets;
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
  EXPECT_NE(builds.offenders[0].finding.find("identity churn"), std::string::npos);
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
  EXPECT_NE(builds.offenders.at(0).finding.find("block_dim spread"), std::string::npos);
}

TEST(BudgetEvaluate, AllowRebuildsExemptsAModuleOnPurpose) {
  Budgets budgets;
  budgets.allow_rebuilds = {{"__main__", "sweeps closures on purpose"}};
  const auto result = evaluate(entry_with(budgets), churn_report(), std::nullopt);
  const auto& builds = outcome(result, "max_builds_per_module");
  EXPECT_EQ(builds.verdict, Verdict::pass);
  EXPECT_NE(builds.note.find("sweeps closures on purpose"), std::string::npos);
  budgets.allow_rebuilds.clear();
  budgets.max_builds_per_module = 3;
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), churn_report(), std::nullopt), "max_builds_per_module").verdict, Verdict::pass);
}

TEST(BudgetEvaluate, ModuleAndIdentityCeilings) {
  Report report = clean_report();
  report.modules = 3;
  report.identities = 3;
  report.module_events = {compiled("fill_1016810a", "aaaaaaa", 900), compiled("scale_2026810b", "bbbbbbb", 400),
                          compiled("add_3036810c", "ccccccc", 300)};
  Budgets budgets;
  budgets.max_modules = 1;
  budgets.max_identities = 2;
  const auto result = evaluate(entry_with(budgets), report, std::nullopt);
  const auto& modules = outcome(result, "max_modules");
  EXPECT_EQ(modules.verdict, Verdict::fail);
  EXPECT_EQ(modules.measured, 3.0);
  ASSERT_EQ(modules.offenders.size(), 3u);
  EXPECT_EQ(modules.offenders[0].module, "fill_1016810a");  // most expensive first
  EXPECT_NE(modules.offenders[0].finding.find("module=\"unique\""), std::string::npos);
  EXPECT_EQ(outcome(result, "max_identities").verdict, Verdict::fail);
}

TEST(BudgetEvaluate, GranularModulesAreExplained) {
  Report report = clean_report();
  report.modules = 2;
  report.module_events = {compiled("feature.a", "aaaaaaa", 900), compiled("feature.b", "bbbbbbb", 400)};
  Budgets budgets;
  budgets.max_modules = 1;
  const auto& modules = outcome(evaluate(entry_with(budgets), report, std::nullopt), "max_modules");
  EXPECT_NE(modules.offenders.at(0).finding.find("CS-4"), std::string::npos);
}

TEST(BudgetEvaluate, ColdAndElapsedSeconds) {
  Budgets budgets;
  budgets.cold_seconds = 2.0;
  budgets.compile_elapsed_seconds = 4.0;
  const auto result = evaluate(entry_with(budgets), clean_report(3000), std::nullopt);
  const auto& cold = outcome(result, "cold_seconds");
  EXPECT_EQ(cold.verdict, Verdict::fail);
  EXPECT_DOUBLE_EQ(cold.measured, 3.0);
  EXPECT_EQ(cold.offenders.at(0).module, "__main__");
  EXPECT_EQ(outcome(result, "compile_elapsed_seconds").verdict, Verdict::pass);
}

TEST(BudgetEvaluate, WarmNearZeroFailsOnWarmCompilesOrWork) {
  Budgets budgets;
  budgets.warm_near_zero = true;
  Report report = clean_report(3000);
  report.sample_results[0].warm_compiled_events = 1;
  report.module_events.push_back(compiled("__main__", "aaaaaaa", 10, "warm"));
  report.instrumentation.app_kernel_cache_dir = "/tmp/xyz";
  const auto& warm = outcome(evaluate(entry_with(budgets), report, std::nullopt), "warm_near_zero");
  EXPECT_EQ(warm.verdict, Verdict::fail);
  ASSERT_EQ(warm.offenders.size(), 1u);
  EXPECT_NE(warm.offenders[0].finding.find("CS-2"), std::string::npos);

  Report slow = clean_report(3000);
  slow.warm_module_ms = summarize({200.0});  // above max(5% of 3000 ms, 50 ms) = 150 ms
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), slow, std::nullopt), "warm_near_zero").verdict, Verdict::fail);
  Report tiny = clean_report(100);
  tiny.warm_module_ms = summarize({40.0});  // 5% of 100 ms is 5 ms, but the floor is 50 ms
  EXPECT_EQ(outcome(evaluate(entry_with(budgets), tiny, std::nullopt), "warm_near_zero").verdict, Verdict::pass);
}

TEST(BudgetEvaluate, StructuralCeilings) {
  Budgets budgets;
  budgets.max_generated_source_bytes = 10'000;
  budgets.max_lto_artifacts = 0;
  Report report = clean_report();
  report.cache.lto_artifacts = 2;
  const auto result = evaluate(entry_with(budgets), report, std::nullopt);
  const auto& source = outcome(result, "max_generated_source_bytes");
  EXPECT_EQ(source.verdict, Verdict::fail);
  EXPECT_NE(source.offenders.at(0).finding.find("enable_backward"), std::string::npos);
  EXPECT_EQ(outcome(result, "max_lto_artifacts").verdict, Verdict::fail);
}

TEST(BudgetEvaluate, BaselineBandRegressionAndImprovement) {
  Budgets budgets;
  budgets.baseline = "/b.json";
  Report baseline = clean_report(1000);
  baseline.cold_module_ms = summarize({990, 1000, 1010});  // MAD 10 ms: band = max(10, 20) = 20 ms
  auto verdict = [&](double cold_ms, EvaluateOptions options = {}) {
    return outcome(evaluate(entry_with(budgets), clean_report(cold_ms), baseline, options), "baseline").verdict;
  };
  EXPECT_EQ(verdict(1015), Verdict::pass);
  EXPECT_EQ(verdict(1021), Verdict::fail);
  EXPECT_EQ(verdict(985), Verdict::pass);
  EXPECT_EQ(verdict(900), Verdict::improved);
  EXPECT_EQ(verdict(900, {.fail_on_improvement = true}), Verdict::fail);
  EXPECT_EQ(verdict(2000, {.updating_baseline = true}), Verdict::accepted);
  budgets.baseline_tolerance_percent = 150;
  EXPECT_EQ(verdict(2000), Verdict::pass);
}

TEST(BudgetEvaluate, BaselineBandIsOnePercentWithoutSpread) {
  Report baseline = clean_report(1000);
  const auto comparison = compare_to_baseline(baseline, clean_report(1009), 0.0);
  EXPECT_DOUBLE_EQ(comparison.band_ms, 10.0);
  EXPECT_FALSE(comparison.regressed());
  EXPECT_TRUE(compare_to_baseline(baseline, clean_report(1011), 0.0).regressed());
}

TEST(BudgetEvaluate, ChangedWorkloadFailsInItsOwnRight) {
  Budgets budgets;
  budgets.baseline = "/b.json";
  Report candidate = clean_report(1000);
  append_launch(candidate.launches, launch_of("extra", 8));
  const auto& base = outcome(evaluate(entry_with(budgets), candidate, clean_report(1000)), "baseline");
  EXPECT_EQ(base.verdict, Verdict::fail);
  EXPECT_NE(base.note.find("workload changed"), std::string::npos);

  // Renamed kernels are the same workload: fixes rename and merge modules.
  Report renamed = clean_report(1000);
  renamed.launches.clear();
  append_launch(renamed.launches, launch_of("renamed", 16), 3);
  EXPECT_EQ(workload_difference(clean_report(), renamed), std::nullopt);
  Report reshaped = clean_report(1000);
  reshaped.launches.clear();
  append_launch(reshaped.launches, launch_of("k", 32), 3);
  EXPECT_NE(workload_difference(clean_report(), reshaped).value_or("").find("launch 1 differs"), std::string::npos);
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
  std::vector<Offender> offenders{{"__main__", "2 builds", "identity churn: the module's content changed"},
                                  {"feature.a", "1 build(s)", ""},
                                  {"other", "1 build(s)", "kept"}};
  analysis::Diagnosis diagnosis;
  analysis::Finding late;
  late.id = "CS-1";
  late.title = "kernel defined after its module was loaded";
  late.fix = "define all kernels before the first launch";
  late.module = "__main__";
  analysis::Finding split;
  split.id = "CS-4";
  split.title = "one feature split over several modules";
  split.module = "feature";
  diagnosis.findings = {late, split};
  attach_findings(offenders, diagnosis);
  EXPECT_EQ(offenders[0].finding,
            "identity churn: CS-1 kernel defined after its module was loaded; fix: define all kernels before the first launch");
  EXPECT_EQ(offenders[1].finding, "CS-4 one feature split over several modules");
  EXPECT_EQ(offenders[2].finding, "kept");
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
