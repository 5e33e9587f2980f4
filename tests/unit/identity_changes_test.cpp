// Why module identities moved between two runs (verdict/identity_changes.h) and how compare and a
// `baseline:` budget say it: each case is two crafted reports that differ in one thing only, and
// the text must name that thing (the kernel, the option, the block_dim, the closure and its test),
// or say "not recorded" when a side has no load snapshots.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "budget/evaluate.h"
#include "facts/snapshot_diff.h"
#include "render/budget_markdown.h"
#include "render/budget_summary_text.h"
#include "render/budget_text.h"
#include "render/identity_changes_text.h"
#include "render/judgement_json.h"
#include "render/judgement_summary_text.h"
#include "render/judgement_text.h"
#include "report_fixtures.h"
#include "verdict/identity_changes.h"
#include "verdict/judge.h"

namespace wcp::verdict {
namespace {

using testing::clean_report;
using testing::kernel_in;
using testing::snapshot_load;

KernelInfo hashed_kernel(const std::string& key, int line, const std::string& hash, int object) {
  KernelInfo kernel = kernel_in(key, "/src/sim/solver.py", line);
  kernel.hash = hash;
  kernel.object = object;
  kernel.args = std::vector<std::string>{"x"};
  kernel.constants = std::map<std::string, std::string>{};
  return kernel;
}

TestContext running(const std::string& id) {
  return {id, TestPhase::call, ""};
}

// One compiled load of `name` with a snapshot, built while `test` ran (when given).
ModuleEvent load_of(const std::string& name, const std::string& hash, std::vector<KernelInfo> kernels,
                    const std::string& test = "", const std::string& device = "cpu") {
  ModuleEvent event = snapshot_load(name, hash, 400.0, std::move(kernels), {}, device);
  event.detail->trigger = SourceLocation{"/src/sim/run.py", 42, "main"};
  event.detail->functions = std::vector<FunctionInfo>{};
  if (!test.empty()) event.detail->test = running(test);
  return event;
}

Report run_with(std::vector<ModuleEvent> events) {
  Report report = clean_report(1000.0);
  report.module_events = std::move(events);
  report.identities = report.module_events.size();
  report.compiled_events = report.module_events.size();
  return report;
}

// The baseline every case starts from: module "solver" with two kernels.
Report solver_baseline() {
  return run_with({load_of("solver", "aaaaaaa",
                           {hashed_kernel("integrate", 10, "1a2b3c4d", 1), hashed_kernel("collide", 30, "0f0f0f0f", 2)},
                           "tests/test_solver.py::test_step")});
}

std::string change_lines_text(const IdentityChanges& changes) {
  std::string text;
  for (const auto& line : render::identity_change_lines(changes, 0)) text += line + "\n";
  return text;
}

TEST(IdentityChanges, OneKernelBodyChangedNamesThatKernelItsHashesAndTheTest) {
  const Report candidate = run_with({load_of(
      "solver", "bbbbbbb", {hashed_kernel("integrate", 10, "5e6f7a8b", 1), hashed_kernel("collide", 30, "0f0f0f0f", 2)},
      "tests/test_solver.py::test_step")});
  const IdentityChanges changes = compare_identities(solver_baseline(), candidate);
  ASSERT_EQ(changes.modules.size(), 1u);
  const auto& module = changes.modules.front();
  EXPECT_EQ(module.change, ModuleChange::changed);
  ASSERT_EQ(module.explanations.size(), 1u);
  ASSERT_TRUE(module.explanations.front().diff);
  const SnapshotDiff& diff = *module.explanations.front().diff;
  ASSERT_EQ(diff.changed.size(), 1u);
  EXPECT_EQ(diff.changed.front().kernel.key, "integrate");
  EXPECT_TRUE(diff.added.empty());
  EXPECT_TRUE(diff.removed.empty());
  EXPECT_EQ(change_lines_text(changes),
            "solver@cpu: kernel integrate changed (content hash 1a2b3c4d -> 5e6f7a8b); first built by "
            "tests/test_solver.py::test_step\n");
}

TEST(IdentityChanges, AKernelThatMovedLinesIsTheSameKernelAcrossRuns) {
  // An edit above the kernel moved it; across runs the key, not the line or object, is the kernel.
  KernelInfo moved = hashed_kernel("integrate", 14, "5e6f7a8b", 7);
  const Report candidate =
      run_with({load_of("solver", "bbbbbbb", {moved, hashed_kernel("collide", 34, "0f0f0f0f", 8)})});
  const auto changes = compare_identities(solver_baseline(), candidate);
  ASSERT_EQ(changes.modules.size(), 1u);
  const auto& diff = *changes.modules.front().explanations.front().diff;
  ASSERT_EQ(diff.changed.size(), 1u);
  EXPECT_EQ(diff.changed.front().kernel.key, "integrate");
  // collide's content did not change: moving lines is not a change of it.
  EXPECT_TRUE(diff.added.empty()) << change_lines_text(changes);
  EXPECT_TRUE(diff.removed.empty()) << change_lines_text(changes);
  EXPECT_NE(change_lines_text(changes).find("first built at sim/run.py:42"), std::string::npos)
      << change_lines_text(changes);
}

TEST(IdentityChanges, AModuleOptionChangedNamesTheOptionOldAndNew) {
  Report candidate = solver_baseline();
  candidate.module_events.front().hash = "ccccccc";
  candidate.module_events.front().detail->options["fast_math"] = "True";
  Report baseline = solver_baseline();
  baseline.module_events.front().detail->options["fast_math"] = "False";
  const auto changes = compare_identities(baseline, candidate);
  ASSERT_EQ(changes.modules.size(), 1u);
  const std::string text = change_lines_text(changes);
  EXPECT_NE(text.find("solver@cpu: option fast_math False -> True"), std::string::npos) << text;
  EXPECT_EQ(text.find("kernel"), std::string::npos) << text;
}

TEST(IdentityChanges, ABlockDimChangeNamesItOnce) {
  const auto kernels = std::vector<KernelInfo>{hashed_kernel("integrate", 10, "1a2b3c4d", 1)};
  Report baseline = run_with({load_of("solver", "aaaaaaa", kernels, "", "cuda:0")});
  Report candidate = run_with({load_of("solver", "ddddddd", kernels, "", "cuda:0")});
  candidate.module_events.front().block_dim = 128;
  candidate.module_events.front().detail->options["block_dim"] = "128";
  const auto changes = compare_identities(baseline, candidate);
  ASSERT_EQ(changes.modules.size(), 1u);
  const std::string text = change_lines_text(changes);
  EXPECT_NE(text.find("solver@cuda:0: block_dim 256 -> 128"), std::string::npos) << text;
  EXPECT_EQ(text.find("option block_dim"), std::string::npos) << text;
}

TEST(IdentityChanges, ANewClosureKernelPerCallNamesTheKernelAndTheTest) {
  // The baseline's test suite made the closure once; the candidate's makes one per test, and each
  // rebuilds the module: those identities are explained against the build before them.
  const auto closure = [](int object, const std::string& hash) {
    KernelInfo kernel = hashed_kernel("make_step__locals__step", 50, hash, object);
    kernel.qualname = "make_step.<locals>.step";
    return kernel;
  };
  const Report baseline = run_with({load_of("sim", "aaaaaaa", {closure(1, "11111111")}, "tests/test_sim.py::test_a")});
  const Report candidate = run_with(
      {load_of("sim", "aaaaaaa", {closure(1, "11111111")}, "tests/test_sim.py::test_a"),
       load_of("sim", "bbbbbbb", {closure(1, "11111111"), closure(2, "22222222")}, "tests/test_sim.py::test_b")});
  const auto changes = compare_identities(baseline, candidate);
  ASSERT_EQ(changes.modules.size(), 1u);
  const auto& module = changes.modules.front();
  EXPECT_EQ(module.identities_added, 1);
  EXPECT_EQ(module.identities_removed, 0);
  ASSERT_EQ(module.explanations.size(), 1u);
  EXPECT_EQ(module.explanations.front().against, ExplainedAgainst::earlier_build);
  ASSERT_EQ(module.explanations.front().diff->added.size(), 1u);
  const std::string text = change_lines_text(changes);
  EXPECT_NE(text.find("sim@cpu: kernel make_step__locals__step added (sim/solver.py:50) since its previous build; "
                      "first built by tests/test_sim.py::test_b"),
            std::string::npos)
      << text;
}

TEST(IdentityChanges, MissingSnapshotsSayNotRecorded) {
  Report baseline = clean_report(1000.0);  // the original probe's kind of report: loads without snapshots
  baseline.module_events.front().name = "solver";
  const Report candidate = run_with({load_of("solver", "bbbbbbb", {hashed_kernel("integrate", 10, "5e6f7a8b", 1)})});
  const auto changes = compare_identities(baseline, candidate);
  ASSERT_EQ(changes.modules.size(), 1u);
  EXPECT_FALSE(changes.modules.front().explanations.front().diff);
  const std::string text = change_lines_text(changes);
  EXPECT_NE(text.find("solver@cpu: hash aaaaaaa -> bbbbbbb; what changed: not recorded (the baseline report has no "
                      "load snapshots)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("kernel"), std::string::npos) << text;
}

TEST(IdentityChanges, NewModulesAreGroupedByTheTestThatFirstBuiltThemAndGoneOnesListed) {
  const Report baseline = run_with({load_of("solver", "aaaaaaa", {hashed_kernel("integrate", 10, "1a2b3c4d", 1)}),
                                    load_of("legacy", "eeeeeee", {hashed_kernel("old", 5, "99999999", 2)})});
  std::vector<ModuleEvent> events = {load_of("solver", "aaaaaaa", {hashed_kernel("integrate", 10, "1a2b3c4d", 1)})};
  for (const char* name : {"contacts", "friction", "joints", "muscles"})
    events.push_back(load_of(name, "fffffff", {hashed_kernel(name, 1, "12345678", 3)}, "tests/test_rig.py::test_rig"));
  const auto changes = compare_identities(baseline, run_with(events));
  const std::string text = change_lines_text(changes);
  EXPECT_EQ(text,
            "new: 4 modules first built by tests/test_rig.py::test_rig (contacts@cpu, friction@cpu, joints@cpu and "
            "1 more)\n"
            "gone: 1 module (legacy@cpu)\n");
  EXPECT_EQ(render::identity_changes_brief(changes),
            "new: 4 modules first built by tests/test_rig.py::test_rig (contacts@cpu, friction@cpu, joints@cpu and 1 "
            "more); gone: 1 module (legacy@cpu)");
}

TEST(IdentityChanges, SameIdentitiesInAnotherOrderAreNoChange) {
  const auto a = load_of("solver", "aaaaaaa", {hashed_kernel("integrate", 10, "1a2b3c4d", 1)});
  const auto b = load_of("solver", "bbbbbbb", {hashed_kernel("integrate", 10, "5e6f7a8b", 1)});
  EXPECT_TRUE(compare_identities(run_with({a, b}), run_with({b, a})).empty());
}

TEST(IdentityChanges, UnobservedLoadsAreNotCompared) {
  Report candidate = solver_baseline();
  candidate.loads_observed = false;
  candidate.loads_unobserved = "Warp printed no load timers";
  const auto changes = compare_identities(solver_baseline(), candidate);
  EXPECT_TRUE(changes.empty());
  EXPECT_EQ(changes.unavailable, "the candidate's module loads were not observed: Warp printed no load timers");
}

TEST(IdentityChanges, CompareDefaultTextAndJsonExplainTheChangedModule) {
  const Report candidate = run_with({load_of(
      "solver", "bbbbbbb", {hashed_kernel("integrate", 10, "5e6f7a8b", 1), hashed_kernel("collide", 30, "0f0f0f0f", 2)},
      "tests/test_solver.py::test_step")});
  const Judgement judgement = judge(solver_baseline(), candidate);
  std::ostringstream summary, full;
  render::render_judgement_summary_text(judgement, summary);
  render::render_judgement_text(judgement, full);
  for (const std::string& text : {summary.str(), full.str()}) {
    EXPECT_NE(text.find("solver@cpu: kernel integrate changed (content hash 1a2b3c4d -> 5e6f7a8b)"), std::string::npos)
        << text;
  }
  const auto json = render::judgement_to_json(judgement);
  const auto& module = json.at("identity_changes").at("modules").at(0);
  EXPECT_EQ(module.at("change"), "changed");
  EXPECT_EQ(module.at("explanations").at(0).at("diff").at("kernels_changed").at(0).at("key"), "integrate");
  EXPECT_EQ(module.at("explanations").at(0).at("built_by").at("test").at("id"), "tests/test_solver.py::test_step");
  // The older fields stay as they were.
  EXPECT_EQ(json.at("modules").at(0).at("module"), "solver@cpu");
}

TEST(IdentityChanges, ABaselineBudgetFailureShowsTheDeltaAsContextNotAsTheVerdict) {
  budget::Settings budgets;
  budgets.baseline = "/b.json";
  budgets.cold_seconds = 0.5;  // fails: the candidate's cold module work is 1 s
  budget::CommandEntry entry;
  entry.name = "suite";
  entry.baseline_report = *budgets.baseline;
  entry.budgets = budgets;
  const Report candidate = run_with({load_of(
      "solver", "bbbbbbb", {hashed_kernel("integrate", 10, "5e6f7a8b", 1), hashed_kernel("collide", 30, "0f0f0f0f", 2)},
      "tests/test_solver.py::test_step")});
  const auto result = budget::evaluate(entry, candidate, solver_baseline());
  ASSERT_TRUE(result.since_baseline);
  ASSERT_TRUE(result.failed());
  // The same cold module work: the baseline budget itself passes; only cold_seconds fails.
  for (const auto& outcome : result.outcomes) {
    EXPECT_EQ(outcome.verdict, outcome.budget == "cold_seconds" ? budget::Verdict::fail : budget::Verdict::pass)
        << outcome.budget;
  }
  const std::string brief =
      "+1 identity: solver@cpu (kernel integrate changed), first built by tests/test_solver.py::test_step";
  EXPECT_EQ(render::identity_changes_brief(*result.since_baseline), brief);
  std::ostringstream summary, full;
  render::render_command_summary(result, summary);
  render::render_command_result(result, full);
  EXPECT_NE(summary.str().find("since the baseline: +1 identity: solver@cpu (kernel integrate changed)"),
            std::string::npos)
      << summary.str();
  EXPECT_NE(full.str().find("solver@cpu: kernel integrate changed (content hash 1a2b3c4d -> 5e6f7a8b)"),
            std::string::npos)
      << full.str();
  budget::CheckResult check;
  check.file = "/repo/budgets.yaml";
  check.commands = {result};
  const std::string markdown = render::render_budget_markdown(check);
  EXPECT_NE(markdown.find("### `suite`: since the baseline"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find(brief), std::string::npos) << markdown;
}

TEST(IdentityChanges, APassingBudgetShowsNoDelta) {
  budget::Settings budgets;
  budgets.baseline = "/b.json";
  budget::CommandEntry entry;
  entry.name = "suite";
  entry.baseline_report = *budgets.baseline;
  entry.budgets = budgets;
  Report candidate = solver_baseline();
  candidate.module_events.front().hash = "bbbbbbb";
  const auto result = budget::evaluate(entry, candidate, solver_baseline());
  ASSERT_FALSE(result.failed());
  std::ostringstream summary;
  render::render_command_summary(result, summary);
  EXPECT_EQ(summary.str().find("since the baseline"), std::string::npos) << summary.str();
}

// The one diff both uses share: within a run a closure re-made from one line is a new kernel
// (another object); across runs the same key is the same kernel.
TEST(SnapshotDiff, KernelMatchTellsARecreatedClosureFromAChangedKernel) {
  const auto before = load_of("m", "aaaaaaa", {hashed_kernel("k", 5, "11111111", 1)});
  const auto after = load_of("m", "bbbbbbb", {hashed_kernel("k", 5, "22222222", 2)});
  const SnapshotDiff within = diff_loads(before, after, KernelMatch::same_object);
  EXPECT_EQ(within.added.size(), 1u);
  EXPECT_EQ(within.removed.size(), 1u);
  EXPECT_TRUE(within.changed.empty());
  const SnapshotDiff across = diff_loads(before, after, KernelMatch::same_key);
  ASSERT_EQ(across.changed.size(), 1u);
  EXPECT_EQ(across.changed.front().old_hash, "11111111");
  EXPECT_TRUE(across.added.empty());
  EXPECT_TRUE(across.removed.empty());
}

TEST(SnapshotDiff, FunctionsAndGenericInstancesAreNamed) {
  auto before = load_of("m", "aaaaaaa", {hashed_kernel("k", 5, "11111111", 1)});
  auto after = load_of("m", "bbbbbbb", {hashed_kernel("k", 5, "22222222", 1)});
  before.detail->kernels.front().overloads = {"a1f4"};
  after.detail->kernels.front().overloads = {"a1f8"};
  FunctionInfo helper{"helper", "/src/sim/solver.py", 3, "sim", "abcdef01", {}, std::nullopt};
  FunctionInfo gone{"old_helper", "/src/sim/solver.py", 8, "sim", "00000000", {}, std::nullopt};
  before.detail->functions = std::vector<FunctionInfo>{helper, gone};
  helper.hash = "abcdef02";
  after.detail->functions = std::vector<FunctionInfo>{helper};
  const SnapshotDiff diff = diff_loads(before, after, KernelMatch::same_key);
  ASSERT_EQ(diff.functions.size(), 1u);
  EXPECT_EQ(diff.functions.front().old_hash, "abcdef01");
  ASSERT_EQ(diff.functions_removed.size(), 1u);
  EXPECT_EQ(diff.functions_removed.front().key, "old_helper");
  EXPECT_EQ(diff.instances_added, (std::vector<std::pair<std::string, std::string>>{{"k", "a1f8"}}));
  EXPECT_EQ(diff.instances_removed, (std::vector<std::pair<std::string, std::string>>{{"k", "a1f4"}}));
}

}  // namespace
}  // namespace wcp::verdict
