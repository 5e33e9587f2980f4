// What this user can do (analysis/user_action_plan.h, issue 40 item 4), and the brief that leads
// with it (render/diagnosis_brief_text.h): on a program whose compile time is all in a
// dependency, the screen names the entry-point setting that reaches the dependency's modules with
// its estimated saving and the `levers` command that measures it, keeping the kernel cache with
// the warm run's figure, and one line per package for the findings that are its maintainers' —
// never a "Not yours to change" as a thing to do.
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "analysis/diagnose.h"
#include "analysis/finding_groups.h"
#include "analysis/user_action_plan.h"
#include "codec/report_json.h"
#include "levers/lever_choice.h"
#include "render/diagnosis_brief_text.h"
#include "render/diagnosis_text.h"
#include "render/wrap.h"

namespace wcp {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const Package kLibrary{"simlib", "0.3.0"};

ModuleOwnership dependency_owner() {
  ModuleOwnership owner;
  owner.owner = Owner::dependency;
  owner.from_snapshot = true;
  owner.package = kLibrary;
  return owner;
}

ModuleOwnership warp_owner() {
  ModuleOwnership owner;
  owner.owner = Owner::warp;
  owner.from_snapshot = true;
  owner.package = Package{"warp-lang", "1.19.0"};
  return owner;
}

analysis::Finding finding_of(Mechanism mechanism, std::vector<std::string> modules, const ModuleOwnership& owner) {
  analysis::Finding out;
  out.mechanism = mechanism;
  out.module = modules.front();
  out.modules = std::move(modules);
  out.owner = owner;
  out.headline = "the fact of " + out.module;
  out.fix = "Not yours to change: this code belongs to simlib 0.3.0; never edit an installed package.";
  out.short_fix = out.fix;
  return out;
}

// A module of `build_ms` whose generated source is `backward` bytes of backward code in `all`.
ModuleUse usage_of(const std::string& name, double build_ms, std::uint64_t forward, std::uint64_t backward,
                   bool built_pch = false) {
  ModuleUse use;
  use.name = name;
  use.device = "cpu";
  use.builds = 1;
  use.build_ms = build_ms;
  use.built_pch = built_pch;
  KernelUse kernel;
  kernel.key = "k";
  kernel.launched = true;
  kernel.backward_generated = true;
  kernel.forward_bytes = forward;
  kernel.backward_bytes = backward;
  use.kernels = {kernel};
  use.source_bytes = forward + backward;
  return use;
}

// A report whose one sample ran cold in `cold_ms` and warm in `warm_ms`, the warm run compiling
// `warm_compiles` modules.
Report measured(double cold_ms, std::optional<double> warm_ms, int warm_compiles = 0) {
  Report report;
  report.command = {"python", "-m", "simlib.examples.pendulum"};
  report.samples = 1;
  SampleResult sample;
  sample.cold_ok = true;
  sample.cold_wall_ms = cold_ms;
  sample.warm_wall_ms = warm_ms;
  if (warm_ms) sample.warm_compiled_events = warm_compiles;
  report.sample_results = {sample};
  report.cold_wall_ms = Summary{cold_ms, 0.0, {cold_ms}, 1};
  if (warm_ms) report.warm_wall_ms = Summary{*warm_ms, 0.0, {*warm_ms}, 1};
  return report;
}

// The dependency-only program of the issue: every finding is about the library's modules.
analysis::Diagnosis dependency_only(const Report& report) {
  analysis::Diagnosis diagnosis;
  diagnosis.bottleneck = "Compilation takes 2580 ms of the 3271 ms cold run (79%).";
  diagnosis.findings = {
      finding_of(Mechanism::granular_modules, {"simlib.contacts", "simlib.forces", "simlib.solver"},
                 dependency_owner()),
      finding_of(Mechanism::unused_backward, {"simlib.contacts", "simlib.forces", "simlib.solver"}, dependency_owner()),
      finding_of(Mechanism::never_launched, {"simlib.contacts", "simlib.solver"}, dependency_owner())};
  diagnosis.kernel_usage = {usage_of("simlib.forces", 4700.0, 300, 700, true),
                            usage_of("simlib.contacts", 600.0, 400, 600), usage_of("simlib.solver", 800.0, 500, 500)};
  diagnosis.finding_groups = analysis::group_findings(diagnosis.findings);
  diagnosis.actions = analysis::plan_user_actions(report, diagnosis);
  return diagnosis;
}

std::string brief_of(const analysis::Diagnosis& diagnosis) {
  std::ostringstream out;
  render::render_diagnosis_brief_text(diagnosis, "dep.json", out);
  return out.str();
}

std::string words_of(const std::string& text) {
  std::string out;
  std::istringstream words(text);
  for (std::string word; words >> word;) out += (out.empty() ? "" : " ") + word;
  return out;
}

void expect_one_screen(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(render::columns(line), render::kScreenColumns) << line;
  for (const char* placeholder : {"<N>", "<module>", "<file>"}) EXPECT_THAT(text, Not(HasSubstr(placeholder)));
}

TEST(UserActions, ADependencysUnusedBackwardCodeGivesTheEntryPointSettingWithItsEstimate) {
  const auto diagnosis = dependency_only(measured(3271.0, 691.0));
  const auto& actions = diagnosis.actions;
  ASSERT_EQ(actions.settings.size(), 1U);
  const auto& setting = actions.settings.front();
  EXPECT_EQ(setting.lever, "backward-off");
  EXPECT_EQ(setting.setting, "wp.config.enable_backward = False");
  EXPECT_THAT(setting.modules, ::testing::ElementsAre("simlib.contacts", "simlib.forces", "simlib.solver"));
  // The module whose build made the precompiled header is not priced: its time is the header's.
  EXPECT_EQ(setting.modules_priced, 2U);
  ASSERT_TRUE(setting.saving_ms.has_value());
  EXPECT_DOUBLE_EQ(*setting.saving_ms, 600.0 * 0.6 + 800.0 * 0.5);
  EXPECT_TRUE(setting.saving_estimated);
  // No line of the user's on record before the modules are created: the entry point, before the package.
  EXPECT_EQ(setting.advice.kind, analysis::FixKind::set_at_entry_point);
  EXPECT_EQ(setting.advice.package, "simlib");
  ASSERT_EQ(setting.advice.settings.size(), 1U);
  EXPECT_EQ(setting.advice.settings[0].key, "enable_backward");
  EXPECT_EQ(setting.advice.settings[0].value, "False");
  EXPECT_THAT(actions.levers_command,
              ::testing::ElementsAre("warp-compile-probe", "levers", "--", "python", "-m", "simlib.examples.pendulum"));
}

TEST(UserActions, FindingsInADependencyAreCountedPerPackageNotThingsToDo) {
  const auto diagnosis = dependency_only(measured(3271.0, 691.0));
  const auto& actions = diagnosis.actions;
  EXPECT_TRUE(actions.own_groups.empty());
  ASSERT_EQ(actions.packages.size(), 1U);
  EXPECT_EQ(actions.packages[0].package, "simlib 0.3.0");
  EXPECT_EQ(actions.packages[0].findings, 3U);
  EXPECT_EQ(actions.packages[0].groups.size(), 3U);
  EXPECT_EQ(actions.things_to_do(), 2U);  // the setting and the cache
}

TEST(UserActions, TheKeptCacheIsTheWarmRunsFigureOnlyWhenAWarmRunMeasuredIt) {
  ASSERT_TRUE(dependency_only(measured(3271.0, 691.0)).actions.keep_cache.has_value());
  EXPECT_DOUBLE_EQ(dependency_only(measured(3271.0, 691.0)).actions.keep_cache->warm_wall_ms, 691.0);
  // No warm run: nothing measured what a kept cache gives, and missing is never 0.
  EXPECT_FALSE(dependency_only(measured(3271.0, std::nullopt)).actions.keep_cache.has_value());
  // A warm run that compiled again did not measure a kept cache (that is CS-2's finding).
  EXPECT_FALSE(dependency_only(measured(3271.0, 3000.0, 2)).actions.keep_cache.has_value());
  EXPECT_THAT(brief_of(dependency_only(measured(3271.0, std::nullopt))), Not(HasSubstr("kernel cache")));
}

TEST(UserActions, ASavingNoModuleCouldPriceIsNotEstimatedNeverZero) {
  Report report = measured(3271.0, 691.0);
  analysis::Diagnosis diagnosis = dependency_only(report);
  diagnosis.kernel_usage.clear();  // no launch record: no per-kernel split of any source
  diagnosis.actions = analysis::plan_user_actions(report, diagnosis);
  ASSERT_EQ(diagnosis.actions.settings.size(), 1U);
  EXPECT_FALSE(diagnosis.actions.settings[0].saving_ms.has_value());
  const std::string text = words_of(brief_of(diagnosis));
  EXPECT_THAT(text, HasSubstr("Saving not estimated"));
  EXPECT_THAT(text, Not(HasSubstr("Saves")));
}

TEST(UserActions, WarpsAndADependencysFindingsAreOneLineEachAndTheUsersOwnStayGroups) {
  Report report = measured(3271.0, 691.0);
  analysis::Diagnosis diagnosis = dependency_only(report);
  diagnosis.findings.push_back(finding_of(Mechanism::unique_modules, {"warp.sparse"}, warp_owner()));
  analysis::Finding own = finding_of(Mechanism::late_kernel, {"__main__"}, ModuleOwnership{});
  own.short_fix = "Define kernel b before app.py:30.";
  diagnosis.findings.push_back(own);
  // A module Warp generated from the user's code is theirs to configure, not a package's.
  ModuleOwnership generated;
  generated.generator = Owner::warp;
  generated.generated = true;
  generated.generated_by = "warp.fem";
  generated.python_module = "__main__";
  diagnosis.findings.push_back(finding_of(Mechanism::granular_modules, {"__main__.integrand_a1b2c3d4"}, generated));
  diagnosis.finding_groups = analysis::group_findings(diagnosis.findings);
  diagnosis.actions = analysis::plan_user_actions(report, diagnosis);
  const auto& actions = diagnosis.actions;
  ASSERT_EQ(actions.packages.size(), 2U);
  EXPECT_EQ(actions.packages[0].package, "simlib 0.3.0");
  EXPECT_EQ(actions.packages[1].package, "warp-lang 1.19.0");
  EXPECT_EQ(actions.packages[1].findings, 1U);
  ASSERT_EQ(actions.own_groups.size(), 2U);
  EXPECT_TRUE(diagnosis.finding_groups[actions.own_groups[0]].yours());  // the user's own first
  EXPECT_TRUE(diagnosis.finding_groups[actions.own_groups[1]].owner->generator.has_value());
  const std::string text = brief_of(diagnosis);
  expect_one_screen(text);
  EXPECT_THAT(text, HasSubstr("[CS-1]"));
  EXPECT_THAT(text, HasSubstr("simlib 0.3.0: 3 findings for its maintainers; `diagnose` lists them"));
  EXPECT_THAT(text, HasSubstr("warp-lang 1.19.0: 1 finding for its maintainers; `diagnose` lists them"));
  EXPECT_THAT(text, Not(HasSubstr("[CS-9]")));
}

TEST(UserActions, TheBriefOfADependencyOnlyProgramLeadsWithWhatTheUserCanDo) {
  const std::string text = brief_of(dependency_only(measured(3271.0, 691.0)));
  expect_one_screen(text);
  const std::string flat = words_of(text);
  EXPECT_THAT(flat, HasSubstr("What you can do (2):"));
  EXPECT_THAT(flat, HasSubstr("Set wp.config.enable_backward = False at your entry point"));
  EXPECT_THAT(flat, HasSubstr("Saves ≈ 760 ms in 3 module(s) of code you do not own (estimate for 2 of them)"));
  EXPECT_THAT(flat, HasSubstr("`warp-compile-probe levers -- python -m simlib.examples.pendulum` measures it"));
  EXPECT_THAT(flat, HasSubstr("Keep the kernel cache between runs (persist it in CI): cold 3271 ms → warm 691 ms"));
  EXPECT_THAT(flat, HasSubstr("simlib 0.3.0: 3 findings for its maintainers; `diagnose` lists them"));
  // Nothing the user cannot act on is listed as a thing to do.
  EXPECT_THAT(text, Not(HasSubstr("Not yours to change")));
  EXPECT_THAT(text, Not(HasSubstr("[CS-")));
  // What the user can do comes before what is the maintainers'.
  EXPECT_LT(text.find("What you can do"), text.find("In code you do not own"));
}

// `levers` measures the setting the screen names, and its ledger shows the screen's estimate as
// the prediction beside the measurement.
TEST(UserActions, TheLeversLedgerPredictsWhatTheScreenEstimates) {
  const Report report = measured(3271.0, 691.0);
  const auto diagnosis = dependency_only(report);
  const auto levers = levers::choose_levers(report, diagnosis);
  const auto lever = std::find_if(levers.begin(), levers.end(),
                                  [](const levers::ChosenLever& l) { return l.outcome.lever.id == "backward-off"; });
  ASSERT_NE(lever, levers.end());
  ASSERT_TRUE(lever->outcome.predicted_saving_ms.has_value());
  EXPECT_DOUBLE_EQ(*lever->outcome.predicted_saving_ms, *diagnosis.actions.settings[0].saving_ms);
  EXPECT_TRUE(lever->outcome.prediction_estimated);
}

// The same on a real report: `measure --samples 1` of fixtures/dependency_only
// (`python -m simlib.examples.pendulum` from its site-packages, simlib 0.3.0's dist-info beside it).
TEST(UserActions, OnARecordedDependencyOnlyRunTheBriefNamesTheLeverTheCacheAndThePackage) {
  const Report report = load_report((fs::path(WCP_TEST_DATA_DIR) / "reports" / "dependency_only.json").string());
  const auto diagnosis = analysis::diagnose(report);
  ASSERT_FALSE(diagnosis.findings.empty());
  for (const auto& finding : diagnosis.findings) {
    ASSERT_TRUE(finding.owner.has_value()) << code(finding.mechanism);
    EXPECT_EQ(finding.owner->owner, Owner::dependency);
  }
  ASSERT_EQ(diagnosis.actions.settings.size(), 1U);
  EXPECT_EQ(diagnosis.actions.settings[0].modules.size(), 3U);
  EXPECT_TRUE(diagnosis.actions.keep_cache.has_value());
  const std::string text = brief_of(diagnosis);
  expect_one_screen(text);
  const std::string flat = words_of(text);
  EXPECT_THAT(flat, HasSubstr("wp.config.enable_backward = False"));
  EXPECT_THAT(flat, HasSubstr("(estimate"));
  EXPECT_THAT(flat, HasSubstr("`warp-compile-probe levers --"));
  EXPECT_THAT(flat, HasSubstr("-m simlib.examples.pendulum` measures it"));
  EXPECT_THAT(flat, HasSubstr("Keep the kernel cache between runs"));
  EXPECT_THAT(flat, HasSubstr(fmt::format("simlib 0.3.0: {} findings for its maintainers; `diagnose` lists them",
                                          diagnosis.findings.size())));
  EXPECT_THAT(text, Not(HasSubstr("Not yours to change")));
  // `diagnose` lists them, under the same heading.
  std::ostringstream summary;
  render::render_diagnosis_summary_text(diagnosis, summary);
  EXPECT_THAT(summary.str(), HasSubstr("In code you do not own, for its maintainers:"));
  EXPECT_THAT(summary.str(), HasSubstr("[CS-10]"));
}

}  // namespace
}  // namespace wcp
