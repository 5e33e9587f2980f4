// Option receipts on crafted reports: every reason a write reaches nothing, the quiet common
// case (a write that reached its module is a receipt line, not a finding), Warp's own writes as
// context only, the findings they turn into (option-never-arrived, config-deadline), their
// JSON, and compare's options section (which never changes a verdict).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "analysis/diagnose.h"
#include "codec/report_json.h"
#include "facts/option_receipts.h"
#include "render/finding_text.h"
#include "render/format.h"
#include "report_fixtures.h"
#include "verdict/judge.h"

namespace wcp {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::map<std::string, std::string> kCopied{{"enable_backward", "True"}, {"max_unroll", "16"}};

SourceLocation at(int line, const std::string& file = "/src/pkg/stages.py") {
  return {file, line, "<module>"};
}

OptionWrite write(OptionApi api, const std::string& target, const std::string& key, const std::string& value, double t,
                  int line) {
  OptionWrite w;
  w.t_s = t;
  w.api = api;
  w.target = target;
  w.key = key;
  w.value = value;
  w.site = at(line);
  return w;
}

OptionWrite config(const std::string& key, const std::string& value, double t, int line) {
  return write(OptionApi::config, "warp.config", key, value, t, line);
}

KernelInfo kernel(const std::string& key, const std::string& python_module) {
  KernelInfo info;
  info.key = key;
  info.file = "/src/pkg/stages.py";
  info.line = 10;
  info.python_module = python_module;
  return info;
}

// A cold build of `name` starting at `start_s`, holding the default options plus `options`.
ModuleEvent build(const std::string& name, const std::string& hash, double start_s,
                  std::map<std::string, std::string> options = {}, std::vector<KernelInfo> kernels = {}) {
  ModuleEvent event = testing::compiled(name, hash, 300.0);
  event.block_dim = 1;
  LoadDetail detail;
  detail.options = {{"enable_backward", "True"}, {"max_unroll", "16"}, {"fast_math", "False"}, {"mode", "None"}};
  for (auto& [key, value] : options) detail.options[key] = value;
  detail.config_at_load = {{"enable_backward", "True"}, {"max_unroll", "16"}, {"mode", "'release'"}};
  detail.kernels = kernels.empty() ? std::vector<KernelInfo>{kernel("k", name)} : std::move(kernels);
  detail.start_s = start_s;
  detail.end_s = start_s + 0.3;
  event.detail = detail;
  return event;
}

// A measured run with an option record and no build yet.
Report run() {
  Report report = testing::clean_report(1000.0);
  report.module_events.clear();
  report.option_record = OptionRecord{};
  return report;
}

void created(Report& report, const std::string& name, double t, int line) {
  report.option_record->modules_created.push_back(
      {0, t, name, kCopied, kCopied, at(line, "/src/app.py"), std::nullopt});
}

OptionReceipt only_receipt(const Report& report) {
  const auto receipts = option_receipts(report);
  EXPECT_TRUE(receipts.has_value());
  EXPECT_EQ(receipts->size(), 1u);
  return receipts->front();
}

const analysis::Finding* find(const analysis::Diagnosis& diagnosis, Mechanism id) {
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                  [&](const analysis::Finding& finding) { return finding.mechanism == id; });
  return found == diagnosis.findings.end() ? nullptr : &*found;
}

std::string joined(const analysis::Finding& finding) {
  std::string text;
  for (const auto& line : finding.evidence) text += line + "\n";
  return text;
}

std::string text_of(const analysis::Diagnosis& diagnosis) {
  std::ostringstream out;
  render::write(diagnosis, render::Format::text, out);
  return out.str();
}

TEST(OptionReceipts, AWriteThatReachedItsModuleIsAReceiptLineNotAFinding) {
  Report report = run();
  report.option_record->writes.push_back(write(OptionApi::set_module_options, "pkg.a", "max_unroll", "4", 1.0, 5));
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 2.0, {{"max_unroll", "4"}}));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached);
  ASSERT_EQ(receipt.reached.size(), 1u);
  EXPECT_EQ(receipt.reached[0].identity.hash, "aaaaaaa");
  EXPECT_FALSE(receipt.reached[0].rebuild);
  const auto diagnosis = analysis::diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::option_never_arrived), nullptr);
  EXPECT_THAT(
      text_of(diagnosis),
      HasSubstr(
          "reached        wp.set_module_options({\"max_unroll\": 4}) on pkg.a (pkg/stages.py:5) -> pkg.a aaaaaaa"));
}

TEST(OptionReceipts, SetAfterLoadReachesTheRebuildAndSaysItWasOne) {
  Report report = run();
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 1.0));
  report.option_record->writes.push_back(write(OptionApi::set_module_options, "pkg.a", "max_unroll", "4", 2.0, 5));
  report.module_events.push_back(build("pkg.a", "bbbbbbb", 3.0, {{"max_unroll", "4"}}));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached);
  ASSERT_EQ(receipt.reached.size(), 1u);
  EXPECT_TRUE(receipt.reached[0].rebuild);
  EXPECT_THAT(text_of(analysis::diagnose(report)), HasSubstr("pkg.a bbbbbbb (a rebuild: CS-3)"));
}

TEST(OptionReceipts, KernelsInUniqueModulesNeverTakeThePythonModulesOptions) {
  Report report = run();
  created(report, "pipeline.stages", 0.5, 25);
  report.option_record->writes.push_back(
      write(OptionApi::set_module_options, "pipeline.stages", "fast_math", "True", 0.6, 25));
  for (const char* name : {"make_stage__locals__stage_ceb63c0f", "make_stage__locals__stage_7939e227"}) {
    report.module_events.push_back(
        build(name, "aaaaaaa", 2.0, {}, {kernel("make_stage__locals__stage", "pipeline.stages")}));
  }
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached_nothing);
  ASSERT_EQ(receipt.missed.size(), 1u);
  EXPECT_EQ(receipt.missed[0].reason, MissReason::kernels_in_unique_modules);
  EXPECT_EQ(receipt.missed[0].elsewhere,
            (std::vector<std::string>{"make_stage__locals__stage_ceb63c0f", "make_stage__locals__stage_7939e227"}));

  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::option_never_arrived);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->module, "pipeline.stages");
  EXPECT_THAT(joined(*finding), HasSubstr("wp.set_module_options({\"fast_math\": True}) on pipeline.stages at "
                                          "pkg/stages.py:25 reached no module build"));
  EXPECT_THAT(joined(*finding),
              HasSubstr("were built in module=\"unique\" module(s) make_stage__locals__stage_ceb63c0f"));
  EXPECT_THAT(finding->fix, HasSubstr("@wp.kernel(module=\"unique\", module_options={\"fast_math\": True})"));
  // fast_math is not a warp.config value modules copy: no entry-point alternative is offered.
  EXPECT_THAT(finding->fix, Not(HasSubstr("wp.config.fast_math")));
  ASSERT_TRUE(diagnosis.option_receipts.has_value());
  EXPECT_EQ(diagnosis.option_receipts->front().finding, Mechanism::option_never_arrived);
  EXPECT_THAT(text_of(diagnosis), HasSubstr("NEVER ARRIVED  wp.set_module_options({\"fast_math\": True}) on "
                                            "pipeline.stages (pkg/stages.py:25): pipeline.stages never loaded"));
}

// The false finding of issue 40: a library's module-level option, in a run that built some of
// that Python module's module="unique" kernels but never loaded the module's own kernels. The
// registry at exit shows the module holds kernels that take the option whenever it loads.
TEST(OptionReceipts, AModuleHoldingUnlaunchedKernelsIsNotBuiltNotAFinding) {
  Report report = run();
  created(report, "pipeline.stages", 0.5, 25);
  report.option_record->writes.push_back(
      write(OptionApi::set_module_options, "pipeline.stages", "enable_backward", "False", 0.6, 25));
  report.module_events.push_back(build("make_stage__locals__stage_ceb63c0f", "aaaaaaa", 2.0, {},
                                       {kernel("make_stage__locals__stage", "pipeline.stages")}));
  report.option_record->modules_registered =
      std::vector<RegisteredModule>{{0, "pipeline.stages", 2, {"any_awake", "surface_velocity"}},
                                    {0, "make_stage__locals__stage_ceb63c0f", 1, {"make_stage__locals__stage"}}};
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::target_not_built);
  ASSERT_EQ(receipt.missed.size(), 1u);
  EXPECT_EQ(receipt.missed[0].reason, MissReason::target_never_loaded);
  EXPECT_EQ(receipt.missed[0].registered_kernels, 2);
  const auto diagnosis = analysis::diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::option_never_arrived), nullptr);
  EXPECT_THAT(text_of(diagnosis), HasSubstr("pipeline.stages was not built in this run; its 2 kernel(s) (any_awake, "
                                            "surface_velocity) take the option when it is"));

  // The same module holding no kernel of its own: nothing can ever take the option, still a finding.
  report.option_record->modules_registered->front().kernel_count = 0;
  report.option_record->modules_registered->front().kernels.clear();
  EXPECT_NE(find(analysis::diagnose(report), Mechanism::option_never_arrived), nullptr);
}

// A write in an installed package that reached nothing is a line for its maintainers: it has
// an owner and never says "Remove".
TEST(OptionReceipts, ADependencysWriteThatReachedNothingIsForItsMaintainers) {
  Report report = run();
  created(report, "lib.stages", 0.5, 25);
  OptionWrite library_write = write(OptionApi::set_module_options, "lib.stages", "fast_math", "True", 0.6, 25);
  library_write.site = at(25, "/venv/lib/python3.11/site-packages/lib/stages.py");
  report.option_record->writes.push_back(library_write);
  report.module_events.push_back(build("make_stage__locals__stage_ceb63c0f", "aaaaaaa", 2.0, {},
                                       {kernel("make_stage__locals__stage", "lib.stages")}));
  report.option_record->modules_registered = std::vector<RegisteredModule>{};
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::option_never_arrived);
  ASSERT_NE(finding, nullptr);
  ASSERT_TRUE(finding->owner.has_value());
  EXPECT_EQ(finding->owner->owner, Owner::dependency);
  EXPECT_THAT(finding->fix, HasSubstr("For the maintainers of"));
  EXPECT_THAT(finding->fix, Not(HasSubstr("Remove")));
  EXPECT_EQ(finding->facts.fix.kind, analysis::FixKind::for_maintainers);
  EXPECT_THAT(render::short_fix_text(*finding), Not(HasSubstr("Remove")));
}

TEST(OptionReceipts, TheRegistryRoundTripsThroughTheReport) {
  Report report = run();
  report.option_record->modules_registered = std::vector<RegisteredModule>{{7, "pkg.a", 3, {"a", "b", "c"}}};
  EXPECT_EQ(report_from_json_text(report_to_json_text(report), "test").option_record, report.option_record);
}

TEST(OptionReceipts, KernelsInAnExplicitlyNamedModule) {
  Report report = run();
  created(report, "solver.kernels", 0.5, 12);
  report.option_record->writes.push_back(
      write(OptionApi::set_module_options, "solver.kernels", "max_unroll", "2", 0.6, 12));
  report.module_events.push_back(build("solver.core", "aaaaaaa", 2.0, {}, {kernel("relax", "solver.kernels")}));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached_nothing);
  EXPECT_EQ(receipt.missed.at(0).reason, MissReason::kernels_in_named_modules);
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::option_never_arrived);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->fix, HasSubstr("wp.set_module_options({\"max_unroll\": 2}, module=\"solver.core\")"));
  // max_unroll is one modules copy from warp.config: the entry-point alternative is offered.
  EXPECT_THAT(finding->fix, HasSubstr("wp.config.max_unroll = 2 at the entry point before the imports"));
}

TEST(OptionReceipts, ATargetThatBuiltNothingIsNoFinding) {
  // A library module the program did not use: its option changed nothing, and nothing is wrong.
  Report report = run();
  report.option_record->writes.push_back(write(OptionApi::set_module_options, "pkg.unused", "max_unroll", "2", 0.6, 3));
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 2.0));
  EXPECT_EQ(only_receipt(report).outcome, ReceiptOutcome::target_not_built);
  const auto diagnosis = analysis::diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::option_never_arrived), nullptr);
  EXPECT_TRUE(std::any_of(diagnosis.ruled_out.begin(), diagnosis.ruled_out.end(), [](const analysis::RuledOut& entry) {
    return entry.mechanism == Mechanism::option_never_arrived;
  }));
}

TEST(OptionReceipts, SetAfterTheLastLoadReachedNothing) {
  Report report = run();
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 1.0));
  report.option_record->writes.push_back(write(OptionApi::set_module_options, "pkg.a", "max_unroll", "4", 2.0, 40));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached_nothing);
  EXPECT_EQ(receipt.missed.at(0).reason, MissReason::set_after_last_load);
  EXPECT_EQ(receipt.missed.at(0).held, "16");
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::option_never_arrived);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("set after the last build of pkg.a (aaaaaaa)"));
  EXPECT_THAT(finding->fix, HasSubstr("before the module's first load"));
}

TEST(OptionReceipts, SetAfterTheLastLoadToTheValueItAlreadyHadChangedNothing) {
  Report report = run();
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 1.0));
  report.option_record->writes.push_back(write(OptionApi::set_module_options, "pkg.a", "max_unroll", "16", 2.0, 40));
  EXPECT_EQ(only_receipt(report).outcome, ReceiptOutcome::no_change);
  EXPECT_FALSE(analysis::diagnose(report).found(Mechanism::option_never_arrived));
}

TEST(OptionReceipts, AGlobalSetAfterTheModuleWasCreatedIsConfigDeadlineOnly) {
  Report report = run();
  created(report, "__main__", 0.5, 20);
  report.option_record->writes.push_back(config("enable_backward", "False", 1.0, 41));
  auto late = build("__main__", "aaaaaaa", 2.0);
  late.detail->config_at_load["enable_backward"] = "False";
  report.module_events.push_back(late);
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached_nothing);
  EXPECT_EQ(receipt.missed.at(0).reason, MissReason::set_after_module_created);
  EXPECT_EQ(receipt.missed.at(0).created_at, at(20, "/src/app.py"));
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::config_deadline);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("module __main__ (aaaaaaa): warp.config.enable_backward = False at load, but "
                                          "the module holds True (copied when the module was created at src/app.py:20, "
                                          "before the setting at pkg/stages.py:41)"));
  EXPECT_EQ(find(diagnosis, Mechanism::option_never_arrived), nullptr);  // one rule, one finding
}

TEST(OptionReceipts, AGlobalSetBeforeTheModuleWasCreatedReachesIt) {
  Report report = run();
  report.option_record->writes.push_back(config("enable_backward", "False", 0.2, 3));
  created(report, "__main__", 0.5, 20);
  report.module_events.push_back(build("__main__", "aaaaaaa", 2.0, {{"enable_backward", "False"}}));
  EXPECT_EQ(only_receipt(report).outcome, ReceiptOutcome::reached);
  const auto diagnosis = analysis::diagnose(report);
  EXPECT_TRUE(diagnosis.findings.empty() || (find(diagnosis, Mechanism::config_deadline) == nullptr &&
                                             find(diagnosis, Mechanism::option_never_arrived) == nullptr));
}

TEST(OptionReceipts, TheCopiedListComesFromTheCreationSnapshots) {
  // The creation snapshots of this (imagined) Warp copy only enable_backward: a late
  // warp.config.max_unroll is then not a missed deadline but a value the module holds itself.
  Report report = run();
  report.option_record->modules_created.push_back(
      {0, 0.5, "__main__", {{"enable_backward", "True"}}, kCopied, at(20), std::nullopt});
  report.option_record->writes.push_back(config("max_unroll", "4", 1.0, 41));
  report.module_events.push_back(build("__main__", "aaaaaaa", 2.0));
  EXPECT_EQ(copied_config_options(*report.option_record), (std::set<std::string>{"enable_backward"}));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.missed.at(0).reason, MissReason::module_holds_own_value);
  const auto diagnosis = analysis::diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::config_deadline), nullptr);
  EXPECT_NE(find(diagnosis, Mechanism::option_never_arrived), nullptr);
}

TEST(OptionReceipts, AGlobalNoModuleTakesIsHeldByEachModule) {
  // warp.config has no fast_math: each module builds with its own option.
  Report report = run();
  created(report, "__main__", 0.5, 20);
  report.option_record->writes.push_back(config("fast_math", "True", 0.2, 3));
  report.module_events.push_back(build("__main__", "aaaaaaa", 2.0));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached_nothing);
  EXPECT_EQ(receipt.missed.at(0).reason, MissReason::module_holds_own_value);
  EXPECT_EQ(receipt.missed.at(0).held, "False");
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::option_never_arrived);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("module __main__ (aaaaaaa) holds its own fast_math = False"));
  EXPECT_THAT(finding->fix, HasSubstr("wp.set_module_options({\"fast_math\": True})"));
}

TEST(OptionReceipts, AGlobalReadAtBuildTimeReachesModulesThatLeaveItUnset) {
  Report report = run();
  report.option_record->writes.push_back(config("mode", "'debug'", 0.2, 3));
  auto debug = build("__main__", "aaaaaaa", 2.0);
  debug.detail->config_at_load["mode"] = "'debug'";
  report.module_events.push_back(debug);
  EXPECT_EQ(only_receipt(report).outcome, ReceiptOutcome::reached);
}

// cuda_output: the module's option stays None and Warp reads warp.config.cuda_output while it
// builds, a key the load's config snapshot does not hold (GPU check 2026-12-04): the value the
// build read is the last write of it before the build, never the module's None.
TEST(OptionReceipts, AGlobalTheSnapshotLacksIsTheLastWriteBeforeTheBuild) {
  Report report = run();
  report.option_record->writes.push_back(config("cuda_output", "'cubin'", 0.2, 3));
  report.option_record->writes.push_back(config("cuda_output", "'ptx'", 0.3, 4));
  auto cuda = build("__main__", "aaaaaaa", 2.0, {{"cuda_output", "None"}});
  cuda.device = "cuda:0";
  report.module_events.push_back(cuda);
  const auto receipts = *option_receipts(report);
  ASSERT_EQ(receipts.size(), 2u);
  EXPECT_EQ(receipts[0].outcome, ReceiptOutcome::reached_nothing);
  EXPECT_EQ(receipts[0].missed.at(0).reason, MissReason::overridden);
  EXPECT_EQ(receipts[1].outcome, ReceiptOutcome::reached);
  EXPECT_EQ(option_at_build(report, report.module_events[0], "cuda_output"), "'ptx'");
}

// Warp's Device.get_cuda_output_format answers None for the CPU before it reads cuda_output.
TEST(OptionReceipts, AnOptionOnlyCudaBuildsReadSaysNothingAboutCpuBuilds) {
  Report report = run();
  report.option_record->writes.push_back(config("cuda_output", "'ptx'", 0.2, 3));
  report.module_events.push_back(build("__main__", "aaaaaaa", 2.0, {{"cuda_output", "None"}}));
  EXPECT_EQ(only_receipt(report).outcome, ReceiptOutcome::target_not_built);
  EXPECT_FALSE(analysis::diagnose(report).found(Mechanism::option_never_arrived));
}

TEST(OptionReceipts, OverriddenLaterBeforeTheBuild) {
  Report report = run();
  report.option_record->writes.push_back(write(OptionApi::set_module_options, "pkg.a", "max_unroll", "2", 1.0, 5));
  report.option_record->writes.push_back(write(OptionApi::module_options, "pkg.a", "max_unroll", "8", 1.5, 30));
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 2.0, {{"max_unroll", "8"}}));
  const auto receipts = *option_receipts(report);
  ASSERT_EQ(receipts.size(), 2u);
  EXPECT_EQ(receipts[0].outcome, ReceiptOutcome::reached_nothing);
  EXPECT_EQ(receipts[0].missed.at(0).reason, MissReason::overridden);
  ASSERT_TRUE(receipts[0].missed.at(0).by.has_value());
  EXPECT_EQ(receipts[0].missed.at(0).by->value, "8");
  EXPECT_EQ(receipts[1].outcome, ReceiptOutcome::reached);
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::option_never_arrived);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("overridden before pkg.a (aaaaaaa) was built: "
                                          "wp.get_module(\"pkg.a\").options[\"max_unroll\"] = 8 at pkg/stages.py:30"));
}

TEST(OptionReceipts, AGlobalSetAfterEveryBuildReachedNothing) {
  Report report = run();
  created(report, "__main__", 0.5, 20);
  report.module_events.push_back(build("__main__", "aaaaaaa", 1.0));
  report.option_record->writes.push_back(config("max_unroll", "4", 5.0, 80));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached_nothing);
  EXPECT_EQ(receipt.missed.at(0).reason, MissReason::no_build_after);
  EXPECT_TRUE(analysis::diagnose(report).found(Mechanism::option_never_arrived));
}

// A suite's session hook sets a global for every test file; this one builds no module at all
// (issue 40, field corpus): nothing to reach, nothing wrong, no finding.
TEST(OptionReceipts, AGlobalInAProcessThatBuiltNothingIsNoFinding) {
  Report report = run();
  created(report, "warp.utils", 0.1, 20);
  report.option_record->writes.push_back(config("max_unroll", "4", 0.5, 50));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::target_not_built);
  EXPECT_EQ(receipt.missed.at(0).reason, MissReason::no_build_after);
  EXPECT_FALSE(analysis::diagnose(report).found(Mechanism::option_never_arrived));
}

TEST(OptionReceipts, WarpsOwnWritesAreContextNeverAFinding) {
  Report report = run();
  auto fem = write(OptionApi::set_module_options, "warp._src.fem.space.partition", "enable_backward", "False", 0.1, 2);
  fem.by_warp = true;
  auto cache = config("kernel_cache_dir", "'/tmp/cache'", 0.2, 4);
  cache.by_warp = true;
  auto late = write(OptionApi::set_module_options, "pkg.a", "max_unroll", "4", 2.0, 40);
  late.by_warp = true;
  report.option_record->writes = {fem, cache, late};
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 1.0));
  const auto diagnosis = analysis::diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::option_never_arrived), nullptr);
  EXPECT_EQ(find(diagnosis, Mechanism::config_deadline), nullptr);
  // Only Warp wrote: the receipts section stays quiet in text (the JSON keeps every receipt).
  EXPECT_THAT(text_of(diagnosis), Not(HasSubstr("Option receipts")));
  EXPECT_EQ(diagnosis.option_receipts->size(), 3u);
}

TEST(OptionReceipts, ADependencysModuleMissingALateGlobalIsContext) {
  // Warp's own modules are created during `import warp`, before any application setting.
  Report report = run();
  report.option_record->writes.push_back(config("enable_backward", "False", 0.2, 3));
  created(report, "__main__", 0.5, 20);
  report.module_events.push_back(build("__main__", "aaaaaaa", 2.0, {{"enable_backward", "False"}}));
  KernelInfo warp_kernel = kernel("array_sum", "warp._src.utils");
  warp_kernel.package = Package{"warp-lang", "1.19.0"};
  report.module_events.push_back(build("warp._src.utils", "bbbbbbb", 3.0, {}, {warp_kernel}));
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.outcome, ReceiptOutcome::reached);
  ASSERT_EQ(receipt.missed.size(), 1u);
  EXPECT_TRUE(receipt.missed[0].dependency);
  const auto diagnosis = analysis::diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::config_deadline), nullptr);
  EXPECT_EQ(find(diagnosis, Mechanism::option_never_arrived), nullptr);
}

TEST(OptionReceipts, AForkedChildHoldsWhatItsParentSetBeforeTheFork) {
  Report report = run();
  report.processes.clear();
  report.processes.push_back({10, 1, ProcessRole::main, "app.py", {}, 0.0, std::nullopt, "", true, true, {}});
  report.processes.push_back({11, 10, ProcessRole::worker, "w", {}, 3.0, std::nullopt, "", true, true, {}});
  report.processes.push_back({12, 10, ProcessRole::worker, "w", {}, 0.5, std::nullopt, "", true, true, {}});
  auto set = write(OptionApi::set_module_options, "pkg.a", "max_unroll", "4", 1.0, 5);
  set.pid = 10;
  report.option_record->writes.push_back(set);
  auto in_child = build("pkg.a", "aaaaaaa", 4.0, {{"max_unroll", "4"}});
  in_child.detail->pid = 11;
  auto in_older_child = build("pkg.a", "bbbbbbb", 4.0, {{"max_unroll", "4"}});
  in_older_child.detail->pid = 12;  // started before the write: it never saw it
  report.module_events = {in_child, in_older_child};
  const OptionReceipt receipt = only_receipt(report);
  ASSERT_EQ(receipt.reached.size(), 1u);
  EXPECT_EQ(receipt.reached[0].identity.hash, "aaaaaaa");
}

TEST(OptionReceipts, IdenticalWritesFromOneLineFold) {
  Report report = run();
  for (const char* name : {"make_stage__locals__stage_ceb63c0f", "make_stage__locals__stage_7939e227"}) {
    auto module_option = write(OptionApi::kernel, name, "fast_math", "True", 0.5, 12);
    module_option.kernel = "make_stage__locals__stage";
    module_option.scope = OptionScope::module;
    report.option_record->writes.push_back(module_option);
    report.module_events.push_back(build(name, "aaaaaaa", 2.0, {{"fast_math", "True"}}));
  }
  const OptionReceipt receipt = only_receipt(report);
  EXPECT_EQ(receipt.repeats, 2);
  EXPECT_EQ(receipt.reached.size(), 2u);
  EXPECT_THAT(
      text_of(analysis::diagnose(report)),
      HasSubstr("@wp.kernel(module=\"unique\", module_options={\"fast_math\": True}) on make_stage__locals__stage "
                "(pkg/stages.py:12, 2 times) -> "));
}

TEST(OptionReceipts, APerKernelOptionReachesTheBuildsHoldingTheKernel) {
  Report report = run();
  auto per_kernel = write(OptionApi::kernel, "pkg.a", "enable_backward", "False", 0.5, 12);
  per_kernel.kernel = "k";
  per_kernel.scope = OptionScope::kernel;
  report.option_record->writes.push_back(per_kernel);
  auto event = build("pkg.a", "aaaaaaa", 2.0);
  event.detail->kernels[0].adjoint = false;
  report.module_events.push_back(event);
  EXPECT_EQ(only_receipt(report).outcome, ReceiptOutcome::reached);
}

TEST(OptionReceipts, WithoutARecordNothingIsClaimed) {
  Report report = run();
  report.option_record.reset();
  report.module_events.push_back(build("pkg.a", "aaaaaaa", 2.0));
  EXPECT_FALSE(option_receipts(report).has_value());
  const auto diagnosis = analysis::diagnose(report);
  for (Mechanism id : {Mechanism::config_deadline, Mechanism::option_never_arrived}) {
    EXPECT_TRUE(std::any_of(diagnosis.not_checked.begin(), diagnosis.not_checked.end(),
                            [&](const analysis::NotChecked& entry) { return entry.mechanism == id; }))
        << code(id);
  }
  std::ostringstream json;
  render::write(diagnosis, render::Format::json, json);
  EXPECT_THAT(json.str(), HasSubstr("\"option_receipts\": null"));
}

TEST(OptionReceipts, DiagnosisJsonCarriesEachReceipt) {
  Report report = run();
  report.option_record->writes.push_back(
      write(OptionApi::set_module_options, "solver.kernels", "max_unroll", "2", 0.6, 12));
  report.module_events.push_back(build("solver.core", "aaaaaaa", 2.0, {}, {kernel("relax", "solver.kernels")}));
  std::ostringstream out;
  render::write(analysis::diagnose(report), render::Format::json, out);
  const auto document = nlohmann::json::parse(out.str());
  const auto& receipt = document.at("option_receipts").at(0);
  EXPECT_EQ(receipt.at("outcome"), "reached_nothing");
  EXPECT_EQ(receipt.at("finding"), "option-never-arrived");
  EXPECT_EQ(receipt.at("write").at("api"), "set_module_options");
  EXPECT_EQ(receipt.at("missed").at(0).at("reason"), "kernels_in_named_modules");
  EXPECT_EQ(receipt.at("missed").at(0).at("elsewhere"), nlohmann::json::array({"solver.core"}));
}

TEST(OptionReceipts, TheOptionRecordRoundTripsThroughTheReport) {
  Report report = run();
  created(report, "__main__", 0.5, 20);
  auto module_option = write(OptionApi::kernel, "k_1234abcd", "fast_math", "True", 0.7, 12);
  module_option.kernel = "k";
  module_option.scope = OptionScope::module;
  module_option.by_warp = true;
  report.option_record->writes = {config("enable_backward", "False", 0.2, 3), module_option};
  const Report back = report_from_json_text(report_to_json_text(report), "test");
  EXPECT_EQ(back.option_record, report.option_record);
  Report unrecorded = run();
  unrecorded.option_record.reset();
  EXPECT_FALSE(report_from_json_text(report_to_json_text(unrecorded), "test").option_record.has_value());
}

// --- compare ---------------------------------------------------------------------------------

TEST(OptionComparison, AnOptionThatArrivedMovedTheHashOfItsUniqueModules) {
  Report baseline = run(), candidate = run();
  created(baseline, "pipeline.stages", 0.5, 25);
  baseline.option_record->writes.push_back(
      write(OptionApi::set_module_options, "pipeline.stages", "fast_math", "True", 0.6, 25));
  baseline.module_events.push_back(build("stage_ceb63c0f", "c220306", 2.0, {}, {kernel("stage", "pipeline.stages")}));
  auto module_option = write(OptionApi::kernel, "stage_62a72c13", "fast_math", "True", 0.6, 12);
  module_option.kernel = "stage";
  module_option.scope = OptionScope::module;
  candidate.option_record->writes.push_back(module_option);
  candidate.module_events.push_back(
      build("stage_62a72c13", "b857650", 2.0, {{"fast_math", "True"}}, {kernel("stage", "pipeline.stages")}));

  const verdict::Judgement judgement = verdict::judge(baseline, candidate);
  const auto& options = judgement.options;
  ASSERT_EQ(options.changes.size(), 1u);
  EXPECT_EQ(options.changes[0].module.label, "stage (unique #1)");
  EXPECT_EQ(options.changes[0].key, "fast_math");
  EXPECT_EQ(options.changes[0].baseline_value, "False");
  EXPECT_EQ(options.changes[0].candidate_value, "True");
  EXPECT_TRUE(options.changes[0].module.hash_moved());
  ASSERT_EQ(options.writes.size(), 2u);
  EXPECT_EQ(options.writes[0].side, verdict::Side::baseline);
  EXPECT_FALSE(options.writes[0].arrived());
  EXPECT_EQ(options.writes[1].side, verdict::Side::candidate);
  EXPECT_TRUE(options.writes[1].arrived());

  std::ostringstream text;
  render::write(judgement, render::Format::text, text);
  EXPECT_THAT(text.str(), HasSubstr("stage (unique #1)@cpu"));
  EXPECT_THAT(text.str(), HasSubstr("fast_math          False -> True  hash c220306 -> b857650 moved"));
  EXPECT_THAT(text.str(), HasSubstr("NEVER ARRIVED — pipeline.stages never loaded"));
  std::ostringstream json;
  render::write(judgement, render::Format::json, json);
  const auto document = nlohmann::json::parse(json.str());
  EXPECT_EQ(document.at("options").at("changes").at(0).at("hash_moved"), true);
  EXPECT_EQ(document.at("options").at("writes").at(1).at("arrived"), true);
}

TEST(OptionComparison, AnOptionAddedThatNeverArrivedLeavesTheHashUnchanged) {
  // The seed's check: the candidate adds set_module_options, yet the module it was meant for
  // holds the same value and the same hash — the option never arrived.
  Report baseline = run(), candidate = run();
  baseline.module_events.push_back(build("solver.core", "d353b89", 2.0, {}, {kernel("relax", "solver.kernels")}));
  candidate.option_record->writes.push_back(
      write(OptionApi::set_module_options, "solver.kernels", "max_unroll", "2", 0.6, 12));
  candidate.module_events.push_back(build("solver.core", "d353b89", 2.0, {}, {kernel("relax", "solver.kernels")}));
  const verdict::Judgement judgement = verdict::judge(baseline, candidate);
  EXPECT_TRUE(judgement.options.changes.empty());
  ASSERT_EQ(judgement.options.writes.size(), 1u);
  const auto& written = judgement.options.writes[0];
  EXPECT_FALSE(written.arrived());
  ASSERT_EQ(written.modules.size(), 1u);
  EXPECT_FALSE(written.modules[0].value_changed());
  EXPECT_FALSE(written.modules[0].module.hash_moved());
  std::ostringstream text;
  render::write(judgement, render::Format::text, text);
  EXPECT_THAT(text.str(), HasSubstr("solver.core@cpu: max_unroll 16 -> 16, hash d353b89 unchanged — never arrived"));
}

TEST(OptionComparison, TheSameOptionSetAnotherWayIsNoDifference) {
  Report baseline = run(), candidate = run();
  baseline.option_record->writes.push_back(
      write(OptionApi::module_options, "physics.integrate", "enable_backward", "False", 0.6, 17));
  candidate.option_record->writes.push_back(
      write(OptionApi::set_module_options, "physics.integrate", "enable_backward", "False", 0.6, 16));
  for (Report* report : {&baseline, &candidate}) {
    report->module_events.push_back(build("physics.integrate", "14ec924", 2.0, {{"enable_backward", "False"}}));
  }
  const verdict::Judgement judgement = verdict::judge(baseline, candidate);
  EXPECT_TRUE(judgement.options.changes.empty());
  EXPECT_TRUE(judgement.options.writes.empty());
}

TEST(OptionComparison, NeverChangesTheVerdict) {
  Report baseline = run(), candidate = run();
  baseline.module_events.push_back(build("__main__", "aaaaaaa", 2.0));
  candidate.module_events.push_back(build("__main__", "bbbbbbb", 2.0, {{"max_unroll", "4"}}));
  candidate.option_record->writes.push_back(
      write(OptionApi::set_module_options, "__main__", "max_unroll", "4", 1.0, 5));
  const verdict::Judgement with = verdict::judge(baseline, candidate);
  baseline.option_record.reset();
  candidate.option_record.reset();
  for (Report* report : {&baseline, &candidate}) report->module_events[0].detail.reset();
  const verdict::Judgement without = verdict::judge(baseline, candidate);
  EXPECT_EQ(with.verdict, without.verdict);
  EXPECT_EQ(with.rule, without.rule);
  EXPECT_EQ(with.reason, without.reason);
  EXPECT_EQ(with.notes, without.notes);
  EXPECT_FALSE(without.options.baseline_snapshots);
  std::ostringstream text;
  render::write(without, render::Format::text, text);
  EXPECT_THAT(text.str(), HasSubstr("Options: not compared"));
}

TEST(OptionReceipts, NeverArrivedHeadlineAndShortFixNameTheWriteAndItsLine) {
  Report report = run();
  created(report, "pipeline.stages", 0.5, 25);
  report.option_record->writes.push_back(
      write(OptionApi::set_module_options, "pipeline.stages", "fast_math", "True", 0.6, 25));
  report.module_events.push_back(build("make_stage__locals__stage_ceb63c0f", "aaaaaaa", 2.0, {},
                                       {kernel("make_stage__locals__stage", "pipeline.stages")}));
  const auto diagnosis = analysis::diagnose(report);
  const analysis::Finding* finding = find(diagnosis, Mechanism::option_never_arrived);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, analysis::EventKind::option_reached_no_build);
  ASSERT_EQ(finding->facts.options.size(), 1U);
  const analysis::OptionChange& written = finding->facts.options[0];
  EXPECT_EQ(written.option, "fast_math");
  EXPECT_EQ(written.after, "True");
  EXPECT_FALSE(written.before.has_value());  // a write, not a change between two builds
  ASSERT_TRUE(written.site.has_value());
  EXPECT_EQ(written.site->line, 25);
  EXPECT_EQ(finding->facts.fix.kind, analysis::FixKind::remove_option_write);
  EXPECT_EQ(finding->facts.fix.options, finding->facts.options);
  // One golden text: the facts, phrased.
  EXPECT_EQ(render::short_fix_text(*finding), "Remove the fast_math write at pkg/stages.py:25: it reached no build.");
}

}  // namespace
}  // namespace wcp
