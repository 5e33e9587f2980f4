// A finding's words from its typed facts (render/finding_text.h): a few golden texts per kind keep
// the prose honest, and a group's shared line is phrased once from its members'.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "analysis/finding_groups.h"
#include "render/finding_text.h"

namespace wcp::render {
namespace {

using analysis::EventKind;
using analysis::Finding;
using analysis::FixAction;
using analysis::FixKind;
using analysis::KernelFact;
using analysis::OptionChange;
using analysis::site_at;

Finding unused_backward(const std::string& module, int line) {
  Finding finding;
  finding.mechanism = Mechanism::unused_backward;
  finding.module = module;
  finding.fix = "Set wp.config.enable_backward = False before pipeline/stages.py:" + std::to_string(line) +
                ", where module " + module + "'s first kernel is defined. Or set it on " + module + ".";
  finding.owner = ModuleOwnership{};
  return finding;
}

Finding late_kernel(const std::string& kernel, int line) {
  Finding finding;
  finding.mechanism = Mechanism::late_kernel;
  finding.module = "app";
  finding.fix = std::string(info(Mechanism::late_kernel).fix);
  const std::vector<KernelFact> kernels{{kernel, site_at("/home/u/src/app.py", line)}};
  finding.facts.event = EventKind::kernel_added_after_load;
  finding.facts.kernels = kernels;
  finding.facts.fix = analysis::fix_with<&FixAction::kernels>(FixKind::define_before_first_launch, kernels);
  return finding;
}

TEST(FindingText, ALateKernelIsPhrasedFromItsKernelAndSite) {
  Finding finding = late_kernel("offset", 40);
  EXPECT_EQ(headline_text(finding), "kernel added after load: offset (src/app.py:40)");
  EXPECT_EQ(short_fix_text(finding), "Define (import) offset (src/app.py:40) before the module's first launch.");
  // The full fix stays the family's: the action is its specific first step.
  EXPECT_EQ(fix_text(finding), info(Mechanism::late_kernel).fix);
  finding.facts.more_rebuilds = 2;
  EXPECT_EQ(headline_text(finding), "kernel added after load: offset (src/app.py:40) (and 2 more rebuild(s))");
}

TEST(FindingText, AChangedOptionSaysBeforeAndAfter) {
  Finding finding;
  finding.mechanism = Mechanism::late_option;
  const std::vector<OptionChange> options{{"max_unroll", "16", "4", std::nullopt}};
  finding.facts.event = EventKind::option_changed_after_load;
  finding.facts.options = options;
  finding.facts.fix = analysis::fix_with<&FixAction::options>(FixKind::set_module_options_early, options);
  EXPECT_EQ(headline_text(finding), "option changed after load: max_unroll: 16 -> 4");
  EXPECT_EQ(short_fix_text(finding),
            "Set max_unroll with wp.set_module_options at the top of the Python module, before the first launch.");
}

TEST(FindingText, AWriteThatReachedNothingNamesItsSiteAndFunction) {
  Finding finding;
  finding.mechanism = Mechanism::option_never_arrived;
  const std::vector<OptionChange> written{{"fast_math", std::nullopt, "True", site_at("pkg/stages.py", 25, "setup")}};
  finding.facts.event = EventKind::option_reached_no_build;
  finding.facts.options = written;
  finding.facts.fix = analysis::fix_with<&FixAction::options>(FixKind::remove_option_write, written);
  EXPECT_EQ(headline_text(finding), "fast_math = True set at pkg/stages.py:25 (in setup) reached no module build");
  EXPECT_EQ(short_fix_text(finding), "Remove the fast_math write at pkg/stages.py:25 (in setup): it reached no build.");
  finding.facts.fix.kind = FixKind::for_maintainers;
  finding.facts.fix.package = "simlib 0.3.0";
  EXPECT_EQ(short_fix_text(finding), "For the maintainers of simlib 0.3.0; nothing for you to change.");
}

TEST(FindingText, AWholeActionIsTheFullFix) {
  Finding finding;
  finding.mechanism = Mechanism::changed_reference;
  finding.fix = std::string(info(Mechanism::changed_reference).fix);
  finding.facts.fix.kind = FixKind::rename_shadowed_argument;
  finding.facts.fix.kernels = {{"combine", site_at("src/app.py", 144)}};
  finding.facts.fix.names = {"loss"};
  finding.facts.fix.python_module = "__main__";
  finding.facts.fix.whole = true;
  EXPECT_EQ(fix_text(finding), short_fix_text(finding));
  EXPECT_THAT(fix_text(finding), ::testing::StartsWith("Rename combine's argument `loss` (src/app.py:144) or the "
                                                       "global `loss` of __main__"));
}

TEST(FindingText, AFamilyStillWrittenByAnalysisKeepsItsWordsOrFallsBack) {
  Finding finding = unused_backward("mod_a", 12);
  finding.trigger = "backward code in mod_a, no adjoint launch";
  EXPECT_EQ(headline_text(finding), finding.trigger);  // no shorter line: the trigger
  EXPECT_EQ(short_fix_text(finding),
            "Set wp.config.enable_backward = False before pipeline/stages.py:12, where "
            "module mod_a's first kernel is defined.");  // the fix's first sentence
  finding.headline = "mod_a: backward code, never adjoint";
  finding.short_fix = "Set it early.";
  EXPECT_EQ(headline_text(finding), finding.headline);
  EXPECT_EQ(short_fix_text(finding), finding.short_fix);
}

TEST(FindingText, EveryKindHasItsOwnName) {
  std::set<std::string_view> fixes, events;
  for (int kind = 0; kind <= static_cast<int>(FixKind::drop_unique); ++kind)
    EXPECT_TRUE(fixes.insert(analysis::to_string(static_cast<FixKind>(kind))).second) << kind;
  for (int kind = 0; kind <= static_cast<int>(EventKind::unique_kernels_stable); ++kind)
    EXPECT_TRUE(events.insert(analysis::to_string(static_cast<EventKind>(kind))).second) << kind;
  EXPECT_FALSE(fixes.contains(""));
  EXPECT_FALSE(events.contains(""));
}

TEST(FindingText, CostSaysWhetherItWasMeasured) {
  Finding finding;
  EXPECT_EQ(finding.cost().kind, analysis::CostKind::unavailable);
  EXPECT_FALSE(finding.cost().ms.has_value());
  finding.cost_ms = 0.0;  // a measured zero is a measurement
  EXPECT_EQ(finding.cost().kind, analysis::CostKind::measured);
  finding.cost_estimated = true;
  EXPECT_EQ(finding.cost().kind, analysis::CostKind::estimated);
}

TEST(FindingText, GroupShortFixesThatDifferInOneNumberAreOneFixListingEachValue) {
  Finding a = unused_backward("mod_a", 12), b = unused_backward("mod_b", 27), c = unused_backward("mod_c", 12);
  a.short_fix = "Set wp.config.enable_backward = False before pipeline/stages.py:12.";
  b.short_fix = "Set wp.config.enable_backward = False before pipeline/stages.py:27.";
  c.short_fix = a.short_fix;
  for (Finding* finding : {&a, &b, &c}) finding->headline = finding->module + ": backward code, never adjoint";
  const std::vector<Finding> findings{a, b, c};
  const auto groups = analysis::group_findings(findings);
  ASSERT_EQ(groups.size(), 1U);
  EXPECT_FALSE(groups[0].fixes_agree);
  const GroupText text = finding_group_text(groups[0], findings);
  EXPECT_EQ(text.short_fix, "Set wp.config.enable_backward = False before pipeline/stages.py:12 and 27.");
  EXPECT_EQ(text.headline, "");  // the members' differ: a reader is shown each one's
}

TEST(FindingText, GroupShortFixesThatDifferInMoreThanOneNumberHaveNoCommonFix) {
  Finding a = unused_backward("mod_a", 12), b = unused_backward("mod_b", 27);
  a.short_fix = "Set it before a.py:12 and b.py:3.";
  b.short_fix = "Set it before a.py:27 and b.py:4.";
  a.headline = b.headline = "backward code, never adjoint";
  const std::vector<Finding> findings{a, b};
  const GroupText text = finding_group_text(analysis::group_findings(findings).at(0), findings);
  EXPECT_EQ(text.short_fix, "");
  EXPECT_EQ(text.headline, "backward code, never adjoint");
}

TEST(FindingText, TypedLateKernelsOfTwoModulesAreOneGroupWithEachMembersFix) {
  Finding a = late_kernel("offset", 40), b = late_kernel("scale", 52);
  b.module = "other";
  const std::vector<Finding> findings{a, b};
  const auto groups = analysis::group_findings(findings);
  ASSERT_EQ(groups.size(), 1U);  // the same catalogue fix, so one thing to do
  const GroupText text = finding_group_text(groups[0], findings);
  EXPECT_EQ(text.short_fix, "");  // two kernels: each member's own fix, never one with blanks
  EXPECT_EQ(text.headline, "");
}

// The families whose first line used to repeat the observation: what happened, from the facts,
// one line however many modules or kernels (the evidence lists them all).
TEST(FindingText, ProcessUsageAndSerialBuildEventsSayWhatHappened) {
  Finding at_once;
  at_once.facts.event = EventKind::compiled_at_once;
  at_once.facts.identities = {{"__mp_main__", "da70efd", "cuda:0", 2}};
  EXPECT_EQ(headline_text(at_once), "__mp_main__ da70efd on cuda:0 compiled at once in 2 processes");
  at_once.facts.identities.push_back({"solver", "1234567", "cuda:0", 3});
  EXPECT_EQ(headline_text(at_once),
            "__mp_main__ da70efd on cuda:0 and 1 more identities compiled at once in several processes");

  Finding twice;
  twice.facts.event = EventKind::main_script_compiled_twice;
  twice.facts.identities = {{"__mp_main__", "da70efd", "cpu", 0}};
  EXPECT_EQ(headline_text(twice),
            "the main script's kernels (hash da70efd on cpu) compiled as __main__ and again as __mp_main__");

  Finding unused;
  unused.facts.event = EventKind::kernels_never_launched;
  unused.facts.modules = {"shading"};
  for (int i = 0; i < 10; ++i) unused.facts.kernels.push_back({"k" + std::to_string(i), std::nullopt});
  EXPECT_EQ(headline_text(unused),
            "shading: 10 kernel(s) compiled, never launched: k0, k1, k2, k3, k4, k5, k6, k7 and 2 more");
  unused.facts.modules.push_back("export");
  EXPECT_EQ(headline_text(unused), "10 kernel(s) compiled, never launched, in 2 modules (shading and 1 more)");

  Finding serial;
  serial.facts.event = EventKind::built_one_at_a_time;
  serial.facts.modules = {"stage_a", "stage_b"};
  EXPECT_EQ(headline_text(serial), "2 CUDA modules, each built once, built one after another: stage_a, stage_b");

  Finding race;
  race.facts.event = EventKind::kernels_not_found_after_load;
  race.facts.kernels = {{"fill", std::nullopt}};
  race.facts.modules = {"__main__"};
  race.facts.names = {"cpu"};
  EXPECT_EQ(headline_text(race), "Warp did not find kernel fill of module __main__ on cpu after its loads succeeded");
}

TEST(FindingText, BlockDimAndGranularEventsNameTheirModules) {
  Finding spread;
  spread.facts.event = EventKind::built_at_several_block_dims;
  spread.facts.modules = {"__main__"};
  spread.facts.identities = {{"__main__", "a256aaa", "cuda:0", 0}, {"__main__", "a128aaa", "cuda:0", 0}};
  spread.facts.block_dims = {256, 128};
  EXPECT_EQ(headline_text(spread), "__main__ on cuda:0 built at 2 block_dims: 256, 128");
  // A build whose block_dim the log did not give still counts, and says so.
  spread.facts.identities.push_back({"__main__", "b512bbb", "cuda:0", 0});
  EXPECT_EQ(headline_text(spread), "__main__ on cuda:0 built at 3 block_dims: 256, 128, 1 not recorded");

  Finding granular;
  granular.facts.event = EventKind::modules_built_separately;
  granular.facts.modules = {"export", "physics", "shading"};
  granular.facts.names = {"folder /home/me/proj"};
  EXPECT_EQ(headline_text(granular),
            "3 modules of folder /home/me/proj, each a build of its own: export, physics, shading");
}

TEST(FindingText, ARebuildWithoutItsCauseSaysSo) {
  Finding churn;
  churn.facts.event = EventKind::rebuilt_cause_not_recorded;
  churn.facts.modules = {"__main__"};
  churn.facts.identities = {{"__main__", "1a2b3c4", "cuda:0", 0}, {"__main__", "5d6e7f8", "cuda:0", 0}};
  EXPECT_EQ(headline_text(churn),
            "__main__ rebuilt with a new hash (1a2b3c4 -> 5d6e7f8); the change that caused it was not recorded");
  churn.facts.modules.push_back("solver");
  EXPECT_EQ(headline_text(churn),
            "2 modules rebuilt with a new hash; the changes that caused it were not recorded: __main__, solver");
}

}  // namespace
}  // namespace wcp::render
