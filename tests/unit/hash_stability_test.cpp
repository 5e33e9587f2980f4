// The hash experiments' comparison (which cause held), their JSON, the stable_hashes budget and
// CS-2's confirmed cause, on crafted pass records.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/diagnose.h"
#include "budget/evaluate.h"
#include "codec/hash_stability_json.h"
#include "codec/report_json.h"
#include "measure/hash_experiments.h"
#include "measure/relocated_copy.h"
#include "report_fixtures.h"

namespace wcp {
namespace {

using measure::compare_experiments;
using measure::ExperimentRecord;

ExperimentRecord pass_with(const std::string& name, std::vector<ModuleEvent> events,
                           std::vector<std::string> files = {}) {
  ExperimentRecord record;
  record.pass.name = name;
  record.pass.ok = true;
  std::vector<std::string> identities;
  for (const auto& event : events) identities.push_back(event.name + " " + event.hash);
  std::sort(identities.begin(), identities.end());
  record.pass.identities = identities;
  record.events = std::move(events);
  record.loaded_files = std::move(files);
  return record;
}

ModuleEvent load(const std::string& name, const std::string& hash, const std::string& kernel_hash = "") {
  ModuleEvent event = testing::compiled(name, hash, 100.0);
  if (!kernel_hash.empty()) {
    LoadDetail detail;
    KernelInfo kernel = testing::kernel_in("fill", "/ci/checkout/app.py", 27);
    kernel.hash = kernel_hash;
    detail.kernels = {kernel};
    event.detail = detail;
  }
  return event;
}

TEST(HashStability, ModuleGroupsFoldOnlyHexSuffixes) {
  EXPECT_EQ(module_group("map_func_05d3d1e6"), "map_func_*");
  EXPECT_EQ(module_group("map_func_1982c2232a3c37c8"), "map_func_*");
  EXPECT_EQ(module_group("map_func_0x1a2b3c"), "map_func_*");  // hex() of a small hash keeps its "x"
  EXPECT_EQ(module_group("__main__"), "__main__");
  EXPECT_EQ(module_group("physics.solver"), "physics.solver");
  EXPECT_EQ(module_group("make_k__locals__k_deadbeef"), "make_k__locals__k_*");
  EXPECT_EQ(module_group("stage_sorted"), "stage_sorted");  // "sorted" is not 8 hex
}

TEST(HashStability, SameSeedAgreesOtherSeedDiffersIsTheSaltedHash) {
  HashStability out;
  compare_experiments({pass_with("seed 0", {load("map_func_05d3d1e6", "2b3ca59")}),
                       pass_with("seed 0 again", {load("map_func_05d3d1e6", "2b3ca59")}),
                       pass_with("seed 1", {load("map_func_d0ca56d6", "a0c2bef")}),
                       pass_with("relocated", {load("map_func_05d3d1e6", "2b3ca59")})},
                      "/ci/checkout", "1.9.1", out);
  ASSERT_EQ(out.modules.size(), 1u);
  EXPECT_EQ(out.modules[0].module, "map_func_05d3d1e6");
  EXPECT_EQ(out.modules[0].cause, HashCause::python_hash_seed);
  EXPECT_EQ(out.modules[0].fixed_in_warp, "1.17");
  EXPECT_EQ(out.stable, false);

  HashStability newer;  // a Warp that already names them from a digest: no version to upgrade to
  compare_experiments({pass_with("seed 0", {load("map_func_05d3d1e6", "2b3ca59")}),
                       pass_with("seed 0 again", {load("map_func_05d3d1e6", "2b3ca59")}),
                       pass_with("seed 1", {load("map_func_d0ca56d6", "a0c2bef")})},
                      "/ci/checkout", "1.19.0", newer);
  ASSERT_EQ(newer.modules.size(), 1u);
  EXPECT_EQ(newer.modules[0].fixed_in_warp, "");
}

TEST(HashStability, OnlyTheRelocatedRunDiffersIsTheCheckoutPath) {
  HashStability out;
  out.relocated_to = "/tmp/x/relocated-checkout";
  compare_experiments({pass_with("seed 0", {load("__main__", "aaaaaaa", "11111111")}),
                       pass_with("seed 0 again", {load("__main__", "aaaaaaa", "11111111")}),
                       pass_with("seed 1", {load("__main__", "aaaaaaa", "11111111")}),
                       pass_with("relocated", {load("__main__", "bbbbbbb", "22222222")},
                                 {"/tmp/x/relocated-checkout/app.py", "/ci/checkout/lib/helpers.py"})},
                      "/ci/checkout", "1.19.0", out);
  ASSERT_EQ(out.modules.size(), 1u);
  EXPECT_EQ(out.modules[0].cause, HashCause::checkout_path);
  const auto& evidence = out.modules[0].evidence;
  EXPECT_TRUE(std::any_of(evidence.begin(), evidence.end(), [](const std::string& line) {
    return line.find("kernel fill") != std::string::npos && line.find("11111111") != std::string::npos &&
           line.find("22222222") != std::string::npos;
  }));
  EXPECT_EQ(out.original_path_files, std::vector<std::string>{"/ci/checkout/lib/helpers.py"});
}

TEST(HashStability, SameSeedDisagreeingIsPerRunAndNothingMovingIsStable) {
  HashStability per_run;
  compare_experiments(
      {pass_with("seed 0", {load("__main__", "aaaaaaa")}), pass_with("seed 0 again", {load("__main__", "ccccccc")}),
       pass_with("seed 1", {load("__main__", "ddddddd")}), pass_with("relocated", {load("__main__", "eeeeeee")})},
      "/ci/checkout", "1.19.0", per_run);
  ASSERT_EQ(per_run.modules.size(), 1u);
  EXPECT_EQ(per_run.modules[0].cause, HashCause::per_run);

  const auto same = [] { return std::vector<ModuleEvent>{load("__main__", "aaaaaaa")}; };
  HashStability stable;
  compare_experiments({pass_with("seed 0", same()), pass_with("seed 0 again", same()), pass_with("seed 1", same()),
                       pass_with("relocated", same())},
                      "/ci/checkout", "1.19.0", stable);
  EXPECT_TRUE(stable.modules.empty());
  EXPECT_EQ(stable.stable, true);

  // Without the relocated run nothing moved, but the path was not tried: undecided, not stable.
  HashStability undecided;
  compare_experiments({pass_with("seed 0", same()), pass_with("seed 0 again", same()), pass_with("seed 1", same())},
                      "/ci/checkout", "1.19.0", undecided);
  EXPECT_FALSE(undecided.stable.has_value());
}

TEST(HashStability, RelocationRewritesOnlyArgumentsInsideTheWorkingDirectory) {
  EXPECT_TRUE(measure::inside("/a/b/c.py", "/a/b"));
  EXPECT_TRUE(measure::inside("/a/b", "/a/b/"));
  EXPECT_FALSE(measure::inside("/a/bc/d.py", "/a/b"));
  const auto relocated =
      measure::relocate_arguments({"/venv/bin/python", "/a/b/app.py", "app.py", "--n=3"}, "/a/b", "/tmp/r/relocated-b");
  EXPECT_EQ(relocated, (std::vector<std::string>{"/venv/bin/python", "/tmp/r/relocated-b/app.py", "app.py", "--n=3"}));
}

HashStability moved_stability() {
  HashStability stability;
  stability.trigger = "asked";
  stability.cost_ms = 4200.0;
  stability.relocated_to = "/tmp/r/relocated-checkout";
  stability.copied_bytes = 1234.0;
  for (const char* name : {"seed 0", "seed 0 again", "seed 1", "relocated"}) {
    HashExperimentPass pass;
    pass.name = name;
    pass.ok = true;
    pass.identities = std::vector<std::string>{"__main__ aaaaaaa"};
    stability.passes.push_back(pass);
  }
  ModuleHashStability module;
  module.module = "__main__";
  module.cause = HashCause::checkout_path;
  module.evidence = {"from a copy: __main__ bbbbbbb"};
  stability.modules = {module};
  stability.stable = false;
  return stability;
}

TEST(HashStability, JsonRoundTrips) {
  const HashStability stability = moved_stability();
  EXPECT_EQ(hash_stability_from_json(hash_stability_to_json(stability)), stability);
  Report report = testing::clean_report();
  report.hash_stability = stability;
  const Report read = report_from_json_text(report_to_json_text(report), "test");
  ASSERT_TRUE(read.hash_stability);
  EXPECT_EQ(*read.hash_stability, stability);
  EXPECT_FALSE(report_from_json_text(report_to_json_text(testing::clean_report()), "test").hash_stability);
}

budget::BudgetOutcome stable_hashes_outcome(const Report& report) {
  budget::CommandEntry entry;
  entry.name = "app";
  entry.budgets.stable_hashes = true;
  const auto result = budget::evaluate(entry, report, std::nullopt);
  for (const auto& outcome : result.outcomes) {
    if (outcome.budget == "stable_hashes") return outcome;
  }
  throw std::runtime_error("no stable_hashes outcome");
}

TEST(HashStability, BudgetPassesOnlyWhenTheExperimentsDecidedStable) {
  Report report = testing::clean_report();
  EXPECT_EQ(stable_hashes_outcome(report).verdict, budget::Verdict::fail);  // no experiments: cannot pass

  report.hash_stability = moved_stability();
  const auto failed = stable_hashes_outcome(report);
  EXPECT_EQ(failed.verdict, budget::Verdict::fail);
  ASSERT_EQ(failed.offenders.size(), 1u);
  EXPECT_EQ(failed.offenders[0].module, "__main__");
  EXPECT_NE(failed.offenders[0].explanation.find("checkout path"), std::string::npos);

  report.hash_stability->modules.clear();
  report.hash_stability->stable = true;
  EXPECT_EQ(stable_hashes_outcome(report).verdict, budget::Verdict::pass);

  report.hash_stability->stable.reset();
  report.hash_stability->relocation_skipped = "the working directory holds more than 50000 files";
  const auto undecided = stable_hashes_outcome(report);
  EXPECT_EQ(undecided.verdict, budget::Verdict::fail);
  EXPECT_NE(undecided.note.find("50000 files"), std::string::npos);
}

const analysis::Finding* cs2(const analysis::Diagnosis& diagnosis) {
  for (const auto& finding : diagnosis.findings) {
    if (finding.mechanism == Mechanism::cache_not_reused) return &finding;
  }
  return nullptr;
}

TEST(HashStability, CheckoutPathIsCs2EvenWhenTheWarmPassHit) {
  Report report = testing::clean_report();
  EXPECT_EQ(cs2(analysis::diagnose(report)), nullptr);
  report.hash_stability = moved_stability();
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = cs2(diagnosis);
  ASSERT_NE(finding, nullptr);
  EXPECT_NE(finding->trigger.find("__main__ (checkout_path)"), std::string::npos);
  EXPECT_NE(finding->fix.find("kernel argument"), std::string::npos);
  EXPECT_TRUE(std::any_of(finding->evidence.begin(), finding->evidence.end(), [](const std::string& line) {
    return line.find("confirmed by experiment") != std::string::npos;
  }));
  EXPECT_TRUE(std::any_of(finding->evidence.begin(), finding->evidence.end(), [](const std::string& line) {
    return line.find("4 experiment pass(es)") != std::string::npos && line.find("4200 ms") != std::string::npos;
  }));
}

TEST(HashStability, SaltedHashCauseReplacesTheGenericAdvice) {
  Report report = testing::clean_report();
  // The warm pass built the lambda's module under another name: CS-2's trigger.
  report.module_events = {testing::compiled("map_func_05d3d1e6", "2b3ca59", 1900.0),
                          testing::compiled("map_func_d0ca56d6", "a0c2bef", 1900.0, Pass::warm)};
  report.sample_results[0].warm_compiled_events = 1;
  report.warm_module_ms = summarize({1900.0});
  HashStability stability = moved_stability();
  stability.modules[0].module = "map_func_05d3d1e6";
  stability.modules[0].cause = HashCause::python_hash_seed;
  stability.modules[0].fixed_in_warp = "1.17";
  report.hash_stability = stability;
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = cs2(diagnosis);
  ASSERT_NE(finding, nullptr);
  EXPECT_NE(finding->fix.find("Upgrade Warp to 1.17"), std::string::npos);
  EXPECT_NE(finding->fix.find("only masks it"), std::string::npos);
  EXPECT_EQ(finding->fix.find("a random value, id()"), std::string::npos);  // not the generic list
}

TEST(HashStability, Cs2HeadlineSaysTheCauseWasConfirmedByExperiment) {
  Report report = testing::clean_report();
  report.module_events = {testing::compiled("map_func_05d3d1e6", "2b3ca59", 1900.0),
                          testing::compiled("map_func_d0ca56d6", "a0c2bef", 1900.0, Pass::warm)};
  report.sample_results[0].warm_compiled_events = 1;
  report.warm_module_ms = summarize({1900.0});
  HashStability stability = moved_stability();
  stability.modules[0].module = "map_func_05d3d1e6";
  stability.modules[0].cause = HashCause::python_hash_seed;
  report.hash_stability = stability;
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = cs2(diagnosis);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->headline,
            "hash of map_func_05d3d1e6 depends on PYTHONHASHSEED, confirmed by experiment: one seed twice agrees, "
            "another differs");
  EXPECT_NE(finding->short_fix.find("hashlib"), std::string::npos);
}

}  // namespace
}  // namespace wcp
