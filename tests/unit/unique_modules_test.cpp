// CS-9 on crafted reports: every name Warp 1.9 and 1.19 give a module="unique" module is
// recognised, and a kernel made from constants is told from one made from data at run time, or
// the finding says the run cannot tell.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/diagnose.h"
#include "codec/report_json.h"
#include "facts/queries.h"
#include "report_fixtures.h"

namespace wcp::analysis {
namespace {

using ::testing::HasSubstr;
using testing::kernel_in;
using ::testing::Not;
using testing::snapshot_load;

const std::string kStages = "/home/me/proj/stages/kernels.py";
const std::string kPlugins = "/home/me/proj/stages/plugins.py";
const std::string kApp = "/home/me/proj/app.py";

// A kernel a factory made inside itself, as the instrumentation records it.
KernelInfo factory_kernel(const std::string& factory, const std::string& function, const std::string& file,
                          std::optional<ClosureKind> closure) {
  KernelInfo kernel =
      kernel_in(factory + "__locals__" + function, file, 12, "stages.kernels", factory + ".<locals>." + function);
  kernel.closure = closure;
  return kernel;
}

// An instrumented report of `samples` successful samples whose cold runs loaded the same modules.
Report measured(int samples) {
  Report report = testing::clean_report(2000.0);
  report.warp_version = "1.19.0";
  report.instrumentation.warp_dir = testing::kWarpDir;
  report.module_events.clear();
  report.cache.modules.clear();
  report.samples = samples;
  report.sample_results.resize(static_cast<std::size_t>(samples), report.sample_results.front());
  return report;
}

void add(Report& report, const std::string& name, const std::string& hash, KernelInfo kernel) {
  report.module_events.push_back(
      snapshot_load(name, hash, 400.0, {std::move(kernel)}, {SourceLocation{kApp, 30, "<module>"}}));
}

// Records each sample's cold identities as the loads of the first one, unless a test changes them.
void record_identities(Report& report) {
  std::vector<std::string> identities;
  for (const auto& event : report.module_events) identities.push_back(event.name + " " + event.hash);
  std::sort(identities.begin(), identities.end());
  for (auto& sample : report.sample_results) sample.cold_identities = identities;
}

// The package fixture's shape: two constant factories and a plugin made from its caller's value.
Report package_with_factories(int samples) {
  Report report = measured(samples);
  add(report, "make_center_kernel__locals__center_kernel_62ab37c0", "4bded03",
      factory_kernel("make_center_kernel", "center_kernel", kStages, ClosureKind::none));
  add(report, "make_scale_kernel__locals__scale_kernel_3e7c7be0", "f75d062",
      factory_kernel("make_scale_kernel", "scale_kernel", kStages, ClosureKind::literals));
  add(report, "make_plugin_kernel__locals__plugin_kernel_7b18f529", "6cab409",
      factory_kernel("make_plugin_kernel", "plugin_kernel", kPlugins, ClosureKind::arguments));
  record_identities(report);
  return report;
}

const Finding* find(const Diagnosis& diagnosis) {
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(), [](const Finding& finding) {
    return finding.mechanism == Mechanism::unique_modules;
  });
  return found == diagnosis.findings.end() ? nullptr : &*found;
}

std::string evidence(const Finding& finding) {
  std::string text;
  for (const auto& line : finding.evidence) text += line + "\n";
  return text;
}

std::string ruled_out_signal(const Diagnosis& diagnosis) {
  for (const auto& ruled : diagnosis.ruled_out) {
    if (ruled.mechanism == Mechanism::unique_modules) return ruled.signal;
  }
  return "";
}

TEST(UniqueModuleNames, EveryFormWarpGives) {
  // Module level (both versions), inside a factory (1.19 "_33849e54", 1.9 "_5ab7e08e" for the
  // same kernel: the hash differs, the form does not), a class body, a generic kernel.
  EXPECT_EQ(unique_module_kernel("fill_1016810a"), "fill");
  EXPECT_EQ(unique_module_kernel("make_center_kernel__locals__center_kernel_33849e54"),
            "make_center_kernel__locals__center_kernel");
  EXPECT_EQ(unique_module_kernel("make_center_kernel__locals__center_kernel_5ab7e08e"),
            "make_center_kernel__locals__center_kernel");
  EXPECT_EQ(unique_module_kernel("Holder__method_kernel_602778ab"), "Holder__method_kernel");
  EXPECT_EQ(unique_module_kernel("generic_kernel_c096a6a2"), "generic_kernel");
  EXPECT_EQ(unique_module_kernel("outer__locals__inner__locals__k_0123abcd"), "outer__locals__inner__locals__k");
  // Python modules and warp.fem's generated names are not unique modules; nor is a short hash.
  EXPECT_FALSE(unique_module_kernel("__main__"));
  EXPECT_FALSE(unique_module_kernel("stages.kernels"));
  EXPECT_FALSE(unique_module_kernel("__main__.integrand_0123abcd"));
  EXPECT_FALSE(unique_module_kernel("kernel_0123abc"));
  EXPECT_FALSE(unique_module_kernel("kernel_0123ABCD"));
}

TEST(UniqueModuleNames, FactoryFromTheSanitisedQualname) {
  EXPECT_EQ(unique_kernel_factory("make_center_kernel__locals__center_kernel"), "make_center_kernel");
  EXPECT_EQ(unique_kernel_factory("outer__locals__inner__locals__k"), "outer__locals__inner");
  EXPECT_EQ(unique_kernel_factory("fill"), "");
  EXPECT_EQ(unique_kernel_factory("Holder__method_kernel"), "");
}

TEST(UniqueModules, ConstantFactoriesOfOnePackageAreOneFinding) {
  // The regression: each factory used to be an owner of its own, each with one module.
  const Diagnosis diagnosis = diagnose(package_with_factories(2));
  const Finding* finding = find(diagnosis);
  ASSERT_NE(finding, nullptr) << ruled_out_signal(diagnosis);
  EXPECT_TRUE(finding->yours());
  EXPECT_EQ(finding->owner->generated_by, "");  // two factories: no one factory names the scope
  EXPECT_THAT(finding->trigger, HasSubstr("2 compiled modules named <kernel>_<8 hex>"));
  EXPECT_THAT(finding->trigger, HasSubstr("2 made from constants, 0 the run cannot tell about (1 more made from data"));
  EXPECT_THAT(evidence(*finding), HasSubstr("2 one-kernel modules named <kernel>_<8 hex of its content>: "
                                            "make_center_kernel__locals__center_kernel_62ab37c0, "
                                            "make_scale_kernel__locals__scale_kernel_3e7c7be0"));
  EXPECT_THAT(evidence(*finding), HasSubstr("made from constants: it captures only literals and had the same hash "
                                            "in all 2 samples"));
  EXPECT_THAT(finding->fix,
              HasSubstr("Drop module=\"unique\" from center_kernel (made by make_center_kernel() in "
                        "stages/kernels.py), scale_kernel (made by make_scale_kernel() in stages/kernels.py)"));
  EXPECT_THAT(finding->fix, HasSubstr("Keep module=\"unique\" on plugin_kernel (made by make_plugin_kernel() in "
                                      "stages/plugins.py)"));
  EXPECT_THAT(finding->fix, Not(HasSubstr("cannot tell")));
  EXPECT_THAT(evidence(*finding), HasSubstr("made from data at run time: it captures an argument"));
  // As facts: the two made from constants, none undecided; the data-made plugin is in neither.
  EXPECT_EQ(finding->facts.event, EventKind::unique_kernels_stable);
  std::vector<std::string> stable;
  for (const auto& kernel : finding->facts.kernels) stable.push_back(kernel.name);
  EXPECT_THAT(stable, ::testing::ElementsAre("center_kernel", "scale_kernel"));
  EXPECT_TRUE(finding->facts.names.empty());
  EXPECT_EQ(finding->facts.fix.kind, FixKind::drop_unique);
  EXPECT_EQ(finding->facts.fix.kernels, finding->facts.kernels);
}

TEST(UniqueModules, DataBuiltKernelsAloneAreRuledOutAndNamed) {
  Report report = measured(2);
  add(report, "make_plugin_kernel__locals__plugin_kernel_7b18f529", "6cab409",
      factory_kernel("make_plugin_kernel", "plugin_kernel", kPlugins, ClosureKind::arguments));
  add(report, "make_stage__locals__stage_0000aaaa", "1111111",
      factory_kernel("make_stage", "stage", kPlugins, ClosureKind::literals));
  add(report, "make_stage__locals__stage_0000bbbb", "2222222",
      factory_kernel("make_stage", "stage", kPlugins, ClosureKind::literals));
  record_identities(report);
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis), nullptr);
  const std::string signal = ruled_out_signal(diagnosis);
  EXPECT_THAT(signal, HasSubstr("made from data at run time, rightly unique"));
  EXPECT_THAT(signal, HasSubstr("make_plugin_kernel__locals__plugin_kernel_7b18f529 (it captures an argument"));
  // Two contents of one kernel in one run: made from values that differ at run time.
  EXPECT_THAT(signal, HasSubstr("this run built 2 modules of this kernel with different content"));
}

TEST(UniqueModules, AHashThatMovesBetweenSamplesIsData) {
  Report report = package_with_factories(2);
  auto& second = *report.sample_results[1].cold_identities;
  std::replace(second.begin(), second.end(), std::string("make_scale_kernel__locals__scale_kernel_3e7c7be0 f75d062"),
               std::string("make_scale_kernel__locals__scale_kernel_99999999 9999999"));
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis), nullptr);  // one constant module left: nothing to merge it with
  EXPECT_THAT(ruled_out_signal(diagnosis), HasSubstr("its content hash differed between samples"));
}

TEST(UniqueModules, AHashThatMovesWithOtherModulesCannotTell) {
  Report report = package_with_factories(2);
  for (auto& sample : report.sample_results) sample.cold_identities->push_back("__main__ aaaaaaa");
  report.sample_results[1].cold_identities->back() = "__main__ bbbbbbb";
  auto& second = *report.sample_results[1].cold_identities;
  std::replace(second.begin(), second.end(), std::string("make_scale_kernel__locals__scale_kernel_3e7c7be0 f75d062"),
               std::string("make_scale_kernel__locals__scale_kernel_99999999 9999999"));
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->fix,
              HasSubstr("This run cannot tell whether scale_kernel (made by make_scale_kernel() in "
                        "stages/kernels.py) is made from constants (its hash differed between samples, but so "
                        "did other modules' hashes"));
}

TEST(UniqueModules, OneSampleCannotTellAndGivesBothFixes) {
  const Diagnosis diagnosis = diagnose(package_with_factories(1));
  const Finding* finding = find(diagnosis);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->trigger, HasSubstr("0 made from constants, 2 the run cannot tell about"));
  EXPECT_THAT(finding->fix, HasSubstr("fewer than two samples recorded its hash"));
  EXPECT_THAT(finding->fix, HasSubstr("if its code never changes at run time, drop module=\"unique\""));
  EXPECT_THAT(finding->fix, HasSubstr("keep module=\"unique\" or give it a named module of its own"));
  EXPECT_THAT(finding->fix, Not(HasSubstr("Drop module=\"unique\" from")));
  // The plugin still is data: it captures its factory's argument, whatever the samples say.
  EXPECT_THAT(finding->fix, HasSubstr("Keep module=\"unique\" on plugin_kernel"));
  EXPECT_THAT(finding->cost_basis, HasSubstr("at most this"));
  EXPECT_TRUE(finding->facts.kernels.empty());  // none known to be made from constants
  EXPECT_THAT(finding->facts.names, ::testing::ElementsAre("center_kernel", "scale_kernel"));
}

TEST(UniqueModules, ObjectsCapturedOrNoRecordCannotTell) {
  Report report = package_with_factories(2);
  report.module_events[0].detail->kernels.front().closure = ClosureKind::values;
  report.module_events[1].detail->kernels.front().closure.reset();  // a report before schema 5
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis);
  ASSERT_NE(finding, nullptr);
  EXPECT_THAT(finding->fix, HasSubstr("it captures values other than literals"));
  EXPECT_THAT(finding->fix, HasSubstr("what it captured was not recorded"));
}

TEST(UniqueModules, NoSnapshotNamesTheFactoryFromTheModuleName) {
  Report report = package_with_factories(2);
  for (auto& event : report.module_events) event.detail.reset();
  const Diagnosis diagnosis = diagnose(report);
  const Finding* finding = find(diagnosis);
  ASSERT_NE(finding, nullptr);
  // Without a snapshot even the plugin cannot be told apart: three modules, both fixes each.
  EXPECT_THAT(finding->trigger, HasSubstr("3 compiled modules"));
  EXPECT_THAT(finding->fix, HasSubstr("whether center_kernel (made by make_center_kernel()) is made from constants "
                                      "(no kernel snapshot)"));
}

TEST(UniqueModules, ASnapshotWithAnotherKernelIsNoUniqueModule) {
  Report report = measured(2);
  add(report, "tools_0123abcd", "1111111", kernel_in("fill", "/home/me/proj/tools_0123abcd.py", 3, "tools_0123abcd"));
  add(report, "util_0123abcd", "2222222", kernel_in("scale", "/home/me/proj/util_0123abcd.py", 3, "util_0123abcd"));
  record_identities(report);
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(find(diagnosis), nullptr);
  EXPECT_EQ(ruled_out_signal(diagnosis), "no module is named <kernel>_<8 hex>");
}

TEST(UniqueModules, ClosureAndIdentitiesSurviveJson) {
  Report report = package_with_factories(2);
  const Report back = report_from_json(report_to_json(report), "crafted");
  EXPECT_EQ(back.module_events[1].detail->kernels.front().closure, ClosureKind::literals);
  EXPECT_EQ(back.sample_results[1].cold_identities, report.sample_results[1].cold_identities);
  EXPECT_EQ(back.schema_version, kReportSchemaVersion);
}

}  // namespace
}  // namespace wcp::analysis
