// The diagnosis on crafted reports: each mechanism fires on its evidence, names it, and stays
// silent (ruled out) on a healthy report.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report_fixtures.h"

#include <algorithm>
#include <functional>
#include <map>

#include <fmt/format.h>

#include "analysis/diagnose.h"
#include "codec/report_json.h"
#include "render/finding_text.h"

namespace wcp::analysis {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

DiagnoseInputs env_cache_disabled() {
  DiagnoseInputs inputs;
  inputs.cuda_cache_disabled_env = true;
  return inputs;
}

DiagnoseInputs calibrated_fixed_cost(double ms) {
  DiagnoseInputs inputs;
  inputs.fixed_cost = FixedCostReference{ms, "calibrated Warp CPU fixed cost"};
  return inputs;
}

KernelInfo kernel(const std::string& key, int line, std::vector<std::string> overloads = {}) {
  KernelInfo info;
  info.key = key;
  info.file = "/src/app.py";
  info.line = line;
  info.overloads = std::move(overloads);
  return info;
}

ModuleEvent load(const std::string& name, const std::string& hash, double ms, std::vector<KernelInfo> kernels,
                 int trigger_line, const std::string& device = "cpu") {
  ModuleEvent event;
  event.name = name;
  event.hash = hash;
  event.device = device;
  event.block_dim = device == "cpu" ? std::optional<int>(1) : std::optional<int>(256);
  event.ms = ms;
  LoadDetail detail;
  detail.kernels = std::move(kernels);
  detail.options = {{"enable_backward", "True"}, {"max_unroll", "16"}};
  detail.config_at_load = {{"enable_backward", "True"}, {"max_unroll", "16"}};
  detail.trigger = SourceLocation{"/src/app.py", trigger_line, "<module>"};
  event.detail = detail;
  return event;
}

Report healthy() {
  Report report;
  report.samples = 1;
  report.cold_module_ms = summarize({1000.0});
  report.warm_module_ms = summarize({3.0});
  report.cold_wall_ms = summarize({4000.0});
  report.warm_wall_ms = summarize({3000.0});
  report.compile_elapsed_ms = summarize({1000.0});
  report.sample_results.push_back({});
  report.sample_results.back().cold_ok = true;
  report.sample_results.back().warm_wall_ms = 3000.0;
  report.sample_results.back().warm_compiled_events = 0;
  report.instrumentation.attached = true;
  testing::main_record(report).launches_recorded = true;
  report.instrumentation.use_precompiled_headers = true;
  report.identities = 1;
  report.modules = 1;
  report.compiled_events = 1;
  auto first = load("__main__", "aaaaaaa", 1000.0, {kernel("fill", 10), kernel("scale", 20)}, 30);
  first.built_pch = true;
  report.module_events.push_back(first);
  report.cache.modules.push_back({"wp___main___aaaaaaa", 9000, 2, 0, {}, 0});
  // The instrumentation recorded option writes and module creations: none by the application.
  report.option_record = OptionRecord{};
  report.option_record->modules_created.push_back({0,
                                                   0.1,
                                                   "__main__",
                                                   {{"enable_backward", "True"}, {"max_unroll", "16"}},
                                                   {},
                                                   SourceLocation{"/src/app.py", 9, "<module>"},
                                                   std::nullopt});
  testing::launches(report).append(LaunchSignature{"fill", "__main__", {64}, "cpu", {"float32"}, 0, false});
  testing::launches(report).append(LaunchSignature{"scale", "__main__", {64}, "cpu", {"float32"}, 0, false});
  return report;
}

const Finding* find(const Diagnosis& diagnosis, Mechanism id) {
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                  [&](const Finding& finding) { return finding.mechanism == id; });
  return found == diagnosis.findings.end() ? nullptr : &*found;
}

std::string joined(const Finding& finding) {
  std::string text;
  for (const auto& line : finding.evidence) text += line + "\n";
  return text;
}

bool ruled_out(const Diagnosis& diagnosis, Mechanism id) {
  return std::any_of(diagnosis.ruled_out.begin(), diagnosis.ruled_out.end(),
                     [&](const RuledOut& r) { return r.mechanism == id; });
}

TEST(DiagnoseMechanisms, HealthyReportHasNoFindingAndRulesEverythingOut) {
  const Diagnosis diagnosis = diagnose(healthy());
  EXPECT_TRUE(diagnosis.findings.empty());
  for (Mechanism id :
       {Mechanism::late_kernel, Mechanism::cache_not_reused, Mechanism::late_option, Mechanism::granular_modules,
        Mechanism::late_generic, Mechanism::cpu_load_race, Mechanism::unique_modules, Mechanism::unused_backward,
        Mechanism::closure_churn, Mechanism::config_deadline}) {
    EXPECT_TRUE(ruled_out(diagnosis, id)) << code(id);
  }
  // A CPU-only run cannot check the CUDA-only mechanisms; it says so instead of ruling them out.
  for (Mechanism id : {Mechanism::block_dim_spread, Mechanism::lto_dominated, Mechanism::serial_builds}) {
    EXPECT_TRUE(std::any_of(diagnosis.not_checked.begin(), diagnosis.not_checked.end(), [&](const NotChecked& entry) {
      return entry.mechanism == id;
    })) << code(id);
  }
  ASSERT_FALSE(diagnosis.facts.empty());
  EXPECT_THAT(diagnosis.facts[1], HasSubstr("precompiled header"));
}

TEST(DiagnoseMechanisms, ARebuildNamesTheTestItHappenedIn) {
  // Schema 11: the rebuilding load's test context goes into the rebuild's evidence line.
  Report report = healthy();
  report.module_events.push_back(
      load("__main__", "bbbbbbb", 400.0, {kernel("fill", 10), kernel("scale", 20), kernel("offset", 40)}, 45));
  report.module_events.back().detail->test = TestContext{"tests/test_x.py::test_y[a]", TestPhase::call, "gw1"};
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::late_kernel);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(
      joined(*finding),
      HasSubstr("triggered at src/app.py:45, rebuilt by tests/test_x.py::test_y[a] (call) on gw1, cost 400 ms"));
}

TEST(DiagnoseMechanisms, LateKernelNamesTheKernelItsLineAndTheTrigger) {
  Report report = healthy();
  report.module_events.push_back(
      load("__main__", "bbbbbbb", 400.0, {kernel("fill", 10), kernel("scale", 20), kernel("offset", 40)}, 45));
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::late_kernel);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("rebuild aaaaaaa -> bbbbbbb triggered at src/app.py:45, cost 400 ms"));
  EXPECT_EQ(finding->facts.event, EventKind::kernel_added_after_load);
  const std::vector<KernelFact> offset{{"offset", site_at("/src/app.py", 40)}};
  EXPECT_EQ(finding->facts.kernels, offset);
  EXPECT_EQ(finding->facts.fix.kind, FixKind::define_before_first_launch);
  EXPECT_EQ(finding->facts.fix.kernels, offset);
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 400.0);
  EXPECT_EQ(doc_link(finding->mechanism), "docs/mechanisms.md#cs-1-kernel-defined-after-its-module-loaded");
  EXPECT_EQ(find(diagnosis, Mechanism::late_option), nullptr);
  EXPECT_EQ(find(diagnosis, Mechanism::closure_churn), nullptr);
}

TEST(DiagnoseMechanisms, LateOptionShowsOldAndNewValue) {
  Report report = healthy();
  auto rebuilt = load("__main__", "bbbbbbb", 300.0, {kernel("fill", 10), kernel("scale", 20)}, 50);
  rebuilt.detail->options["max_unroll"] = "4";
  report.module_events.push_back(rebuilt);
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::late_option);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, EventKind::option_changed_after_load);
  ASSERT_EQ(finding->facts.options.size(), 1u);
  EXPECT_EQ(finding->facts.options[0].option, "max_unroll");
  EXPECT_EQ(finding->facts.options[0].before, "16");
  EXPECT_EQ(finding->facts.options[0].after, "4");
  EXPECT_EQ(find(diagnosis, Mechanism::late_kernel), nullptr);
  // A module option set on purpose is not a missed config deadline.
  EXPECT_EQ(find(diagnosis, Mechanism::config_deadline), nullptr);
}

TEST(DiagnoseMechanisms, LateGenericNamesTheNewInstance) {
  Report report = healthy();
  report.module_events[0].detail->kernels = {kernel("double_it", 10, {"a1f4"})};
  report.module_events.push_back(load("__main__", "bbbbbbb", 300.0, {kernel("double_it", 10, {"a1f4", "a1f8"})}, 31));
  const Diagnosis result = diagnose(report);
  const Finding* finding = find(result, Mechanism::late_generic);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, EventKind::generic_instance_added);
  EXPECT_THAT(finding->facts.names, ElementsAre("double_it[a1f8 (array1d of float64)]"));
}

TEST(DiagnoseMechanisms, ClosureChurnIsToldApartFromALateKernel) {
  Report report = healthy();
  std::vector<KernelInfo> kernels{kernel("fill", 10), kernel("scale", 20)};
  for (int i = 0; i < 3; ++i) {
    kernels.push_back(kernel("make__locals__k", 5));
    report.module_events.push_back(load("__main__", std::string(7, static_cast<char>('b' + i)), 100.0, kernels, 60));
  }
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::closure_churn);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, EventKind::kernel_re_created_after_load);
  ASSERT_EQ(finding->facts.kernels.size(), 1u);
  EXPECT_EQ(finding->facts.kernels[0].name, "make__locals__k");
  EXPECT_EQ(finding->facts.fix.kind, FixKind::create_before_first_launch);
  ASSERT_TRUE(finding->facts.fix.site.has_value());
  EXPECT_EQ(finding->facts.fix.site->line, 5);
  EXPECT_THAT(joined(*finding), HasSubstr("src/app.py:5 made 3 kernel(s) (make__locals__k)"));
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 300.0);
  EXPECT_EQ(find(diagnosis, Mechanism::late_kernel), nullptr);
}

// Issue 40, item 2: one kernel object whose hash changed (report schema 10 records objects) is
// not a kernel added after load; the cause is what its code names.
KernelInfo recorded(const std::string& key, int line, int object, const std::string& hash,
                    std::map<std::string, std::string> constants, std::vector<std::string> args = {}) {
  KernelInfo info = kernel(key, line);
  info.object = object;
  info.hash = hash;
  info.constants = std::move(constants);
  info.args = std::move(args);
  info.python_module = "__main__";
  return info;
}

// A changed reference's fix as facts: its kind, the kernel or function it names with its
// definition, and the one name (argument, value) it is about; the whole fix is this action.
void expect_fix(const FixAction& fix, FixKind kind, const KernelFact& kernel, const std::string& name) {
  EXPECT_EQ(fix.kind, kind);
  EXPECT_THAT(fix.kernels, ElementsAre(kernel));
  EXPECT_THAT(fix.names, ElementsAre(name));
  EXPECT_TRUE(fix.whole);
}

TEST(DiagnoseMechanisms, AKernelWhoseArgumentNameResolvesToAChangedGlobalIsNotALateKernel) {
  Report report = healthy();
  report.module_events[0].detail->kernels = {recorded("combine", 144, 1, "11111111", {}, {"loss", "vol"})};
  report.module_events[0].detail->functions = std::vector<FunctionInfo>{};
  auto rebuilt = load("__main__", "bbbbbbb", 130.0,
                      {recorded("combine", 144, 1, "22222222", {{"loss", "-0.14"}}, {"loss", "vol"})}, 381);
  rebuilt.detail->functions = std::vector<FunctionInfo>{};
  report.module_events.push_back(rebuilt);
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::late_kernel), nullptr);
  const Finding* finding = find(diagnosis, Mechanism::changed_reference);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->headline, HasSubstr("combine (src/app.py:144): the value its code names changed: `loss` "
                                           "(no value) -> -0.14 (also the name of its argument)"));
  // The fix, as facts: rename the argument or the global it shares a name with.
  expect_fix(finding->facts.fix, FixKind::rename_shadowed_argument, {"combine", site_at("/src/app.py", 144)}, "loss");
  EXPECT_EQ(finding->facts.fix.python_module, "__main__");
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 130.0);
}

TEST(DiagnoseMechanisms, AFunctionWhoseCapturedValueChangedIsNamedWithTheKernelsThatRebuiltWithIt) {
  Report report = healthy();
  FunctionInfo sdf{"make__locals__sdf", "/src/shapes.py", 16, "__main__", "aaaa0000", {}, {{{"radius", "1.0"}}}};
  report.module_events[0].detail->kernels = {recorded("distance", 24, 1, "11111111", {}),
                                             recorded("scale", 30, 2, "33333333", {})};
  report.module_events[0].detail->functions = std::vector<FunctionInfo>{sdf};
  sdf.hash = "bbbb0000";
  sdf.constants = {{{"radius", "2.0"}}};
  auto rebuilt = load("__main__", "bbbbbbb", 200.0,
                      {recorded("distance", 24, 1, "22222222", {}), recorded("scale", 30, 2, "33333333", {})}, 41);
  rebuilt.detail->functions = std::vector<FunctionInfo>{sdf};
  report.module_events.push_back(rebuilt);
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::late_kernel), nullptr);
  const Finding* finding = find(diagnosis, Mechanism::changed_reference);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->headline, HasSubstr("function make__locals__sdf (src/shapes.py:16): the value its code names "
                                           "changed: `radius` 1.0 -> 2.0"));
  EXPECT_THAT(finding->headline, HasSubstr("rebuilt with it, unchanged: scale"));
  expect_fix(finding->facts.fix, FixKind::keep_function_value_fixed,
             {"make__locals__sdf", site_at("/src/shapes.py", 16)}, "radius");
  // Never "a module of its own": a kernel moved out of its functions' module is not rebuilt when
  // they change, so that would change results.
  EXPECT_THAT(render::fix_text(*finding), Not(HasSubstr("module of its own")));
}

TEST(DiagnoseMechanisms, AReportWithoutKernelObjectsReadsANewHashAtOneLineAsBefore) {
  Report report = healthy();
  KernelInfo before = kernel("combine", 144);
  before.hash = "11111111";
  KernelInfo after = before;
  after.hash = "22222222";
  report.module_events[0].detail->kernels = {before};
  report.module_events.push_back(load("__main__", "bbbbbbb", 130.0, {after}, 381));
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::changed_reference), nullptr);
  EXPECT_NE(find(diagnosis, Mechanism::late_kernel), nullptr);
}

// CS-11 needs evidence of unrolling, not size alone (issue 40's field review: Warp's fem modules
// are large for other reasons and their line markers barely repeat).
Report with_large_module(std::uint64_t markers, std::uint64_t repeated) {
  Report report = healthy();
  report.cache.modules.clear();
  for (int i = 0; i < 3; ++i) {
    ModuleSource small{fmt::format("wp_small{}_aaaaaaa", i), 10'000, 1, 0, {}, 0};
    small.forward_line_markers = 20;
    small.repeated_line_markers = 0;
    report.cache.modules.push_back(small);
  }
  ModuleSource large{"wp_large_bbbbbbb", 400'000, 1, 0, {}, 0};
  large.forward_line_markers = markers;
  large.repeated_line_markers = repeated;
  report.cache.modules.push_back(large);
  return report;
}

TEST(DiagnoseMechanisms, UnrollBudgetFiresOnALargeModuleWhoseLineMarkersRepeat) {
  const Diagnosis diagnosis = diagnose(with_large_module(650, 450));
  const Finding* finding = find(diagnosis, Mechanism::unroll_budget);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("450 of its 650 source-line markers repeat a line (unrolled loops)"));
}

TEST(DiagnoseMechanisms, UnrollBudgetIsNotASizeAloneRule) {
  const Diagnosis diagnosis = diagnose(with_large_module(192, 8));
  EXPECT_EQ(find(diagnosis, Mechanism::unroll_budget), nullptr);
  const auto ruled = std::find_if(diagnosis.ruled_out.begin(), diagnosis.ruled_out.end(),
                                  [](const auto& line) { return line.mechanism == Mechanism::unroll_budget; });
  ASSERT_NE(ruled, diagnosis.ruled_out.end());
  EXPECT_THAT(ruled->signal, HasSubstr("wp_large_bbbbbbb (40.0x the median per kernel; 8 of 192 source-line markers "
                                       "repeat)"));
  // A report without markers (before schema 10) has no evidence of unrolling either.
  EXPECT_EQ(find(diagnose(with_large_module(0, 0)), Mechanism::unroll_budget), nullptr);
}

TEST(DiagnoseMechanisms, ChurnWithoutSnapshotsIsReportedWithoutGuessingTheCause) {
  Report report = healthy();
  report.module_events.push_back(load("__main__", "bbbbbbb", 300.0, {}, 1));
  for (auto& event : report.module_events) event.detail.reset();
  report.hash_changes = {HashChange{"__main__", "aaaaaaa0", "bbbbbbb0"}};
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::identity_churn);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(find(diagnosis, Mechanism::late_kernel), nullptr);
  // As facts: the module and its hashes, each once, though the load records and Warp's
  // hash-change line (a longer prefix of each hash) both name the rebuild; the cause stays unnamed.
  EXPECT_EQ(finding->facts.event, EventKind::rebuilt_cause_not_recorded);
  EXPECT_THAT(finding->facts.modules, ElementsAre("__main__"));
  std::vector<std::string> hashes;
  for (const auto& identity : finding->facts.identities) hashes.push_back(identity.hash);
  EXPECT_THAT(hashes, ElementsAre("aaaaaaa", "bbbbbbb"));
  EXPECT_EQ(finding->facts.fix.kind, FixKind::as_written);
  EXPECT_EQ(finding->cause, CauseStatus::cannot_tell);
}

TEST(DiagnoseMechanisms, ConfigDeadlineIsAGlobalSetAfterTheModuleCopiedIt) {
  Report report = healthy();
  report.module_events[0].detail->start_s = 2.0;
  report.module_events[0].detail->config_at_load["enable_backward"] = "False";
  OptionWrite late;
  late.t_s = 1.0;
  late.api = OptionApi::config;
  late.target = "warp.config";
  late.key = "enable_backward";
  late.value = "False";
  late.site = SourceLocation{"/src/app.py", 25, "<module>"};
  report.option_record->writes.push_back(late);
  report.cache.modules[0].backward_kernels = 2;
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::config_deadline);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("warp.config.enable_backward = False at load, but the module holds True"));
  EXPECT_THAT(joined(*finding), HasSubstr("created at src/app.py:9, before the setting at src/app.py:25"));
  EXPECT_THAT(joined(*finding), HasSubstr("2 backward entry point(s) still generated"));
  // As facts: which setting, its value, the module that copied it before, and where to set it.
  EXPECT_EQ(finding->facts.event, EventKind::setting_after_module_copied);
  const std::vector<OptionChange> setting{{"enable_backward", std::nullopt, "False", std::nullopt}};
  EXPECT_EQ(finding->facts.options, setting);
  EXPECT_THAT(finding->facts.modules, ElementsAre("__main__"));
  EXPECT_EQ(finding->facts.fix.kind, FixKind::set_before_deadline);
  ASSERT_EQ(finding->facts.fix.settings.size(), 1U);
  EXPECT_EQ(finding->facts.fix.settings[0].key, "enable_backward");
  EXPECT_EQ(finding->facts.fix.settings[0].value, "False");
  EXPECT_EQ(finding->facts.fix.settings[0].deadline.before.line, 9);  // the module's creation, not the write
  EXPECT_EQ(finding->cost().kind, CostKind::unavailable);
  EXPECT_EQ(find(diagnosis, Mechanism::unused_backward),
            nullptr);  // the deadline finding explains this module's backward code
}

TEST(DiagnoseMechanisms, CacheNotReusedNamesWhatTheAppDid) {
  Report report = healthy();
  report.warm_module_ms = summarize({950.0});
  report.sample_results[0].warm_compiled_events = 1;
  report.instrumentation.cache_clears = {CacheClear{"clear_kernel_cache", SourceLocation{"/src/app.py", 12, ""}}};
  report.instrumentation.cache_kernels_disabled = true;
  const Diagnosis diagnosis = diagnose(report, env_cache_disabled());
  const Finding* finding = find(diagnosis, Mechanism::cache_not_reused);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("the warm run still compiled 1 module(s)"));
  EXPECT_THAT(joined(*finding), HasSubstr("clear_kernel_cache at src/app.py:12"));
  EXPECT_THAT(joined(*finding), HasSubstr("cache_kernels was False"));
  EXPECT_THAT(joined(*finding), HasSubstr("CUDA_CACHE_DISABLE"));
}

bool not_checked(const Diagnosis& diagnosis, Mechanism id) {
  return std::any_of(diagnosis.not_checked.begin(), diagnosis.not_checked.end(),
                     [&](const NotChecked& n) { return n.mechanism == id; });
}

TEST(DiagnoseMechanisms, SlowWarmLoadsThatWereCachedAreNotCacheNotReused) {
  // The CUDA recordings: a cached first load read ~600 ms under the instrumentation. The warm
  // pass logged every load (cached): the milliseconds are not evidence of a compile.
  Report report = healthy();
  report.warm_module_ms = summarize({950.0});
  ModuleEvent warm = report.module_events[0];
  warm.pass = Pass::warm;
  warm.status = LoadStatus::cached;
  warm.ms = 950.0;
  report.module_events.push_back(warm);
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::cache_not_reused), nullptr);
  EXPECT_TRUE(ruled_out(diagnosis, Mechanism::cache_not_reused));
  EXPECT_THAT(diagnosis.bottleneck, ::testing::Not(HasSubstr("compiled again")));
}

TEST(DiagnoseMechanisms, AWarmLoadLoggedCompiledIsTheTrigger) {
  Report report = healthy();
  report.sample_results[0].warm_compiled_events.reset();  // only the load says so
  report.warm_module_ms = summarize({40.0});              // small: milliseconds never decide
  ModuleEvent warm = report.module_events[0];
  warm.pass = Pass::warm;
  warm.ms = 40.0;
  report.module_events.push_back(warm);
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::cache_not_reused);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->trigger, HasSubstr("the warm pass logged 1 load(s) as (compiled): __main__ aaaaaaa on cpu"));
  EXPECT_THAT(diagnosis.bottleneck, HasSubstr("the warm run compiled again (see CS-2)"));
  // Nothing named and the same hash rebuilt: the entry was there but not used.
  EXPECT_THAT(joined(*finding), HasSubstr("rebuilt a hash the cold pass had built"));
}

TEST(DiagnoseMechanisms, NoPerLoadWarmRecordLeavesCacheReuseNotChecked) {
  // A report of this tool without warm events or warm counts (an older or damaged one): a warm
  // module work near the cold one is not guessed into CS-2.
  Report report = healthy();
  report.warm_module_ms = summarize({950.0});
  report.sample_results[0].warm_compiled_events.reset();
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::cache_not_reused), nullptr);
  EXPECT_TRUE(not_checked(diagnosis, Mechanism::cache_not_reused));
  EXPECT_THAT(diagnosis.bottleneck, HasSubstr("whether the warm run compiled is not recorded"));
}

TEST(DiagnoseMechanisms, TheOriginalProbesReportIsReadByItsOwnRule) {
  const std::string dir = std::string(WCP_TEST_DATA_DIR) + "/interop/";
  const Diagnosis destroyed = diagnose(load_report(dir + "cache_destroyed-app.json"));
  const Finding* finding = find(destroyed, Mechanism::cache_not_reused);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->trigger, HasSubstr("report of the original probe (no per-load warm record)"));
  EXPECT_THAT(finding->trigger, HasSubstr("95% of the cold run's 5798 ms"));
  EXPECT_THAT(destroyed.bottleneck, HasSubstr("the warm run compiled again"));
  for (const char* name : {"clean-app", "late_kernel-app", "late_kernel-fixed", "closure_factory-app"}) {
    const Diagnosis clean = diagnose(load_report(dir + name + ".json"));
    EXPECT_EQ(find(clean, Mechanism::cache_not_reused), nullptr) << name;
    EXPECT_TRUE(ruled_out(clean, Mechanism::cache_not_reused)) << name;
  }
}

TEST(DiagnoseMechanisms, EachCacheCauseHasItsOwnFixWithADeliberateRebuildPath) {
  const auto fix_for = [](const std::function<void(Report&)>& cause) {
    Report report = healthy();
    report.sample_results[0].warm_compiled_events = 1;
    cause(report);
    const Diagnosis diagnosis = diagnose(report);
    const Finding* finding = find(diagnosis, Mechanism::cache_not_reused);
    return finding ? finding->fix : std::string("(no CS-2)");
  };
  const std::string clear = fix_for([](Report& r) {
    r.instrumentation.cache_clears = {CacheClear{"clear_kernel_cache", SourceLocation{"/src/app.py", 12, ""}}};
  });
  EXPECT_THAT(clear, HasSubstr("Remove the wp.clear_kernel_cache() call"));
  const std::string lto = fix_for([](Report& r) {
    r.instrumentation.cache_clears = {CacheClear{"clear_lto_cache", {}}};
  });
  EXPECT_THAT(lto, HasSubstr("wp.clear_lto_cache()"));
  EXPECT_THAT(lto, HasSubstr("LTO artifacts"));
  const std::string off = fix_for([](Report& r) { r.instrumentation.cache_kernels_disabled = true; });
  EXPECT_THAT(off, HasSubstr("warp.config.cache_kernels = False"));
  const std::string dir = fix_for([](Report& r) { r.instrumentation.app_kernel_cache_dir = "/tmp/tmpab12"; });
  EXPECT_THAT(dir, HasSubstr("never a temporary or per-run one"));
  const std::string cuda = fix_for([](Report& r) { r.instrumentation.cuda_cache_disabled = true; });
  EXPECT_THAT(cuda, HasSubstr("Unset CUDA_CACHE_DISABLE"));
  EXPECT_THAT(cuda, HasSubstr("cuda_output = \"ptx\", a driver at least as new as the toolkit, or an arch NVRTC"));
  const std::string varies = fix_for([](Report& r) {
    ModuleEvent warm = r.module_events[0];
    warm.pass = Pass::warm;
    warm.hash = "fffffff";  // the warm run built a hash the cold run never built
    r.module_events.push_back(warm);
  });
  EXPECT_THAT(varies, HasSubstr("Make the module hash stable between runs"));
  for (const auto& fix : {clear, lto, off, dir, cuda, varies}) EXPECT_THAT(fix, HasSubstr("--rebuild"));
}

TEST(DiagnoseMechanisms, ACacheClearWithoutAWarmCompileIsContextUnlessItRebuiltWhatItRemoved) {
  Report report = healthy();
  report.instrumentation.cache_clears = {CacheClear{"clear_kernel_cache", SourceLocation{"/src/app.py", 12, ""}}};
  Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis, Mechanism::cache_not_reused), nullptr);
  EXPECT_TRUE(std::any_of(diagnosis.facts.begin(), diagnosis.facts.end(), [](const std::string& fact) {
    return fact.find("clear_kernel_cache at src/app.py:12") != std::string::npos &&
           fact.find("not CS-2") != std::string::npos;
  }));
  // The same cold run built the identity again after clearing: the clear cost a build.
  report.module_events.push_back(report.module_events[0]);
  report.module_events.back().built_pch = false;
  diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::cache_not_reused);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->trigger, HasSubstr("__main__ (aaaaaaa) on cpu built 2 times with the same hash"));
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 1000.0);
}

TEST(DiagnoseMechanisms, GranularModulesEstimateExcludesThePrecompiledHeaderBuild) {
  Report report = healthy();
  report.module_events.clear();
  const char* names[] = {"feature.a", "feature.b", "feature.c", "feature.d"};
  for (int i = 0; i < 4; ++i) {
    report.module_events.push_back(
        load(names[i], "abcdef" + std::to_string(i), i == 0 ? 2500.0 : 150.0 + i, {kernel("k", i)}, 9));
    testing::launches(report).append(LaunchSignature{"k", names[i], {64}, "cpu", {"float32"}, 0, false});
  }
  report.module_events[0].built_pch = true;
  const Diagnosis result = diagnose(report);
  const Finding* finding = find(result, Mechanism::granular_modules);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, EventKind::modules_built_separately);
  EXPECT_THAT(finding->facts.modules, ElementsAre("feature.a", "feature.b", "feature.c", "feature.d"));
  EXPECT_THAT(finding->facts.names, ElementsAre("package feature"));
  // The header's 2.5 s is not the modules' own time: it counts as a sibling's median (152 ms).
  EXPECT_THAT(joined(*finding), HasSubstr("608 ms in all"));
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 3 * 151.0);  // the smallest module, not the 2.5 s header build
  EXPECT_THAT(finding->cost_basis, HasSubstr("smallest module"));
}

TEST(DiagnoseMechanisms, GranularModulesUseTheCalibrationWhenThereIsOne) {
  Report report = healthy();
  report.module_events.clear();
  for (const char* name : {"pkg.a", "pkg.b", "pkg.c"}) {
    report.module_events.push_back(load(name, "1234567", 200.0, {kernel("k", 1)}, 9));
    testing::launches(report).append(LaunchSignature{"k", name, {64}, "cpu", {"float32"}, 0, false});
  }
  const Diagnosis result = diagnose(report, calibrated_fixed_cost(80.0));
  const Finding* finding = find(result, Mechanism::granular_modules);
  ASSERT_NE(finding, nullptr);
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 160.0);
  EXPECT_THAT(finding->cost_basis, HasSubstr("calibrated"));
  EXPECT_THAT(finding->trigger, HasSubstr("27 % of their cold time (threshold 20 %)"));
}

// Two modules of one package, launched together: granular when the fixed cost merging saves is
// a fair share of their time, a note when they are big.
Report package_pair(double each_ms) {
  Report report = healthy();
  report.module_events.clear();
  for (const char* name : {"reductions.total", "reductions.energy"}) {
    report.module_events.push_back(load(name, "1234567", each_ms, {kernel("k", 1)}, 9));
    testing::launches(report).append(LaunchSignature{"k", name, {64}, "cpu", {"float32"}, 0, false});
  }
  return report;
}

TEST(DiagnoseMechanisms, TwoSmallModulesOfOnePackageAreGranular) {
  const Diagnosis result = diagnose(package_pair(400.0), calibrated_fixed_cost(300.0));
  const Finding* finding = find(result, Mechanism::granular_modules);
  ASSERT_NE(finding, nullptr);
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 300.0);
  EXPECT_EQ(finding->fix_effect, FixEffect::keeps_behaviour);
}

TEST(DiagnoseMechanisms, TwoBigModulesOfOnePackageAreANoteNotAFinding) {
  const Diagnosis result = diagnose(package_pair(5000.0), calibrated_fixed_cost(300.0));
  EXPECT_EQ(find(result, Mechanism::granular_modules), nullptr);
  EXPECT_TRUE(std::any_of(result.facts.begin(), result.facts.end(), [](const std::string& fact) {
    return fact.starts_with("CS-4 package reductions: 2 modules") &&
           fact.find("(3 %, under 20 %)") != std::string::npos;
  }));
}

TEST(DiagnoseMechanisms, GranularModulesMustShareOptionsAndBeLaunched) {
  Report options_differ = package_pair(400.0);
  options_differ.module_events[1].detail->options["max_unroll"] = "4";
  EXPECT_EQ(find(diagnose(options_differ, calibrated_fixed_cost(300.0)), Mechanism::granular_modules), nullptr);
  Report one_not_launched = package_pair(400.0);
  testing::launches(one_not_launched) = {};
  testing::launches(one_not_launched)
      .append(LaunchSignature{"k", "reductions.total", {64}, "cpu", {"float32"}, 0, false});
  EXPECT_EQ(find(diagnose(one_not_launched, calibrated_fixed_cost(300.0)), Mechanism::granular_modules), nullptr);
}

TEST(DiagnoseMechanisms, UniqueModulesAreRecognisedByNameAndSingleKernel) {
  Report report = healthy();
  report.module_events.clear();
  report.module_events.push_back(load("fill_1016810a", "c440c6d", 2000.0, {kernel("fill", 1)}, 9));
  report.module_events.push_back(load("scale_5883ad3e", "26178c2", 300.0, {kernel("scale", 2)}, 10));
  report.module_events[0].built_pch = true;
  const Diagnosis result = diagnose(report);
  const Finding* finding = find(result, Mechanism::unique_modules);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("fill_1016810a, scale_5883ad3e"));
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 300.0);
}

TEST(DiagnoseMechanisms, BlockDimSpreadOnCuda) {
  Report report = healthy();
  report.module_events.clear();
  report.module_events.push_back(load("__main__", "aaaaaaa", 500.0, {kernel("fill", 1)}, 9, "cuda:0"));
  report.module_events.push_back(load("__main__", "aaaaaaa", 500.0, {kernel("fill", 1)}, 9, "cuda:0"));
  report.module_events[1].block_dim = 128;
  const Diagnosis result = diagnose(report);
  const Finding* finding = find(result, Mechanism::block_dim_spread);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("first build at each block_dim: 256 (hash aaaaaaa, 500 ms), 128 (hash "
                                          "aaaaaaa, 500 ms)"));
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 500.0);  // every block_dim's first build but the first one
  EXPECT_THAT(finding->facts.block_dims, ElementsAre(256, 128));
  EXPECT_THAT(finding->facts.modules, ElementsAre("__main__"));
  EXPECT_EQ(finding->facts.event, EventKind::built_at_several_block_dims);
  ASSERT_EQ(finding->facts.identities.size(), 2u);
  EXPECT_EQ(finding->facts.identities[1].device, "cuda:0");
  EXPECT_EQ(finding->cost().kind, CostKind::measured);
}

TEST(DiagnoseMechanisms, SerialCudaBuildsReportTheCeiling) {
  Report report = healthy();
  report.module_events.clear();
  report.module_events.push_back(load("a", "1111111", 600.0, {kernel("x", 1)}, 9, "cuda:0"));
  report.module_events.push_back(load("b", "2222222", 300.0, {kernel("y", 1)}, 9, "cuda:0"));
  report.overlap_factor = 1.0;
  const Diagnosis result = diagnose(report);
  const Finding* finding = find(result, Mechanism::serial_builds);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("900 ms / 600 ms = 1.5x"));
  EXPECT_DOUBLE_EQ(finding->cost_ms.value(), 300.0);
  EXPECT_EQ(finding->facts.event, EventKind::built_one_at_a_time);
  EXPECT_THAT(finding->facts.modules, ElementsAre("a", "b"));
  EXPECT_EQ(finding->cost().kind, CostKind::estimated);  // a ceiling
}

// The CS-8 finding of a healthy run whose log holds `line`.
Finding race_finding(const std::string& line) {
  Report report = healthy();
  report.find_failures = {line};
  const Diagnosis result = diagnose(report);
  const Finding* finding = find(result, Mechanism::cpu_load_race);
  return finding != nullptr ? *finding : Finding{};
}

TEST(DiagnoseMechanisms, FindFailuresAfterLoadsAreTheCpuRace) {
  const Finding finding = race_finding("Failed to find forward kernel 'fill' from module '__main__' for device 'cpu'");
  ASSERT_EQ(finding.mechanism, Mechanism::cpu_load_race);
  EXPECT_THAT(finding.fix, HasSubstr("max_workers <= 1"));
  // What Warp's line named, as facts.
  EXPECT_EQ(finding.facts.event, EventKind::kernels_not_found_after_load);
  ASSERT_EQ(finding.facts.kernels.size(), 1U);
  EXPECT_EQ(finding.facts.kernels[0].name, "fill");
  EXPECT_THAT(finding.facts.modules, ElementsAre("__main__"));
  EXPECT_THAT(finding.facts.names, ElementsAre("cpu"));
}

TEST(DiagnoseMechanisms, AFindFailureInAnotherFormKeepsItsObservation) {
  const Finding finding = race_finding("Failed to find module 'x' (some future wording)");
  ASSERT_EQ(finding.mechanism, Mechanism::cpu_load_race);
  EXPECT_EQ(finding.facts.event, EventKind::as_written);
  EXPECT_TRUE(finding.facts.kernels.empty());
  EXPECT_EQ(finding.trigger, "Warp logged: Failed to find module 'x' (some future wording)");
}

TEST(DiagnoseMechanisms, UnusedBackwardNeedsLaunchesAndBackwardSourceAndNoAdjoint) {
  Report report = healthy();
  report.cache.modules[0].backward_kernels = 2;
  const Diagnosis flagged = diagnose(report);
  const Finding* finding = find(flagged, Mechanism::unused_backward);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, EventKind::backward_never_launched);
  EXPECT_THAT(finding->facts.modules, ElementsAre("__main__"));

  Report differentiated = report;
  testing::launches(differentiated).append(LaunchSignature{"scale", "__main__", {64}, "cpu", {"float32"}, 0, true});
  EXPECT_EQ(find(diagnose(differentiated), Mechanism::unused_backward), nullptr);

  Report blind = report;
  testing::launches(blind) = {};
  testing::main_record(blind).launches_recorded = false;
  const Diagnosis unknown = diagnose(blind);
  EXPECT_EQ(find(unknown, Mechanism::unused_backward), nullptr);
  EXPECT_TRUE(std::any_of(unknown.not_checked.begin(), unknown.not_checked.end(),
                          [](const NotChecked& entry) { return entry.mechanism == Mechanism::unused_backward; }));
}

TEST(DiagnoseMechanisms, SmallCompileShareIsStatedFirst) {
  Report report = healthy();
  report.cold_wall_ms = summarize({60000.0});
  report.compile_elapsed_ms = summarize({1000.0});
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_FALSE(diagnosis.compile_is_bottleneck);
  EXPECT_THAT(diagnosis.bottleneck, HasSubstr("Compilation is not the bottleneck"));
}

TEST(DiagnoseMechanisms, SchemaOneReportParsesAndDiagnoses) {
  const Report report = load_report(std::string(WCP_TEST_DATA_DIR) + "/reports/schema1-cuda.json");
  EXPECT_EQ(report.identities, 3u);
  EXPECT_EQ(total_launches(report), 200u);  // two runs of 100
  ASSERT_EQ(report.processes.size(), 1u);
  EXPECT_EQ(report.processes[0].launches.signatures.size(), 2u);
  const Diagnosis diagnosis = diagnose(report);
  // No per-load snapshots: the churn is reported without guessing which mechanism caused it.
  const Finding* finding = find(diagnosis, Mechanism::identity_churn);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(joined(*finding), HasSubstr("__main__ on cuda:0 at block_dim 256: 2 builds, hashes 1a2b3c4 -> 5d6e7f8"));
  ASSERT_EQ(finding->facts.identities.size(), 2u);
  EXPECT_EQ(finding->facts.identities[1].hash, "5d6e7f8");
  EXPECT_EQ(finding->facts.identities[1].device, "cuda:0");
}

TEST(DiagnoseMechanisms, LateKernelHeadlineAndShortFixNameTheAddedKernel) {
  Report report = healthy();
  report.module_events.push_back(
      load("__main__", "bbbbbbb", 400.0, {kernel("fill", 10), kernel("scale", 20), kernel("offset", 40)}, 45));
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::late_kernel);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, EventKind::kernel_added_after_load);
  const std::vector<KernelFact> offset{{"offset", site_at("/src/app.py", 40)}};
  EXPECT_EQ(finding->facts.kernels, offset);
  EXPECT_EQ(finding->facts.fix.kind, FixKind::define_before_first_launch);
  EXPECT_EQ(finding->facts.fix.kernels, offset);
  EXPECT_EQ(finding->facts.more_rebuilds, 0U);
}

TEST(DiagnoseMechanisms, LateOptionHeadlineAndShortFixNameTheOption) {
  Report report = healthy();
  auto rebuilt = load("__main__", "bbbbbbb", 300.0, {kernel("fill", 10), kernel("scale", 20)}, 50);
  rebuilt.detail->options["max_unroll"] = "4";
  report.module_events.push_back(rebuilt);
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis, Mechanism::late_option);
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->facts.event, EventKind::option_changed_after_load);
  const std::vector<OptionChange> changed{{"max_unroll", "16", "4", std::nullopt}};
  EXPECT_EQ(finding->facts.options, changed);
  EXPECT_EQ(finding->facts.fix.kind, FixKind::set_module_options_early);
  EXPECT_EQ(finding->facts.fix.options, changed);
}

TEST(DiagnoseMechanisms, EveryFindingHasAHeadlineAndAShortFix) {
  Report report = healthy();
  report.module_events.push_back(
      load("__main__", "bbbbbbb", 400.0, {kernel("fill", 10), kernel("scale", 20), kernel("offset", 40)}, 45));
  const Diagnosis diagnosis = diagnose(report);
  ASSERT_FALSE(diagnosis.findings.empty());
  for (const auto& finding : diagnosis.findings) {
    EXPECT_FALSE(render::headline_text(finding).empty()) << code(finding.mechanism);
    EXPECT_FALSE(render::short_fix_text(finding).empty()) << code(finding.mechanism);
  }
}

}  // namespace
}  // namespace wcp::analysis
