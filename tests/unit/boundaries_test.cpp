// Compiled versus launched and the module-boundary proposal, on reports whose generated source
// is split per kernel the way the cache inventory splits it.
#include "analysis/boundaries.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/diagnose.h"
#include "facts/kernel_usage.h"
#include "report_fixtures.h"

namespace wcp::analysis {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::kernel_in;
using testing::kWarpDir;
using testing::snapshot_load;

const std::string kFolder = "/home/me/proj/";

struct Sized {
  std::string key;
  std::uint64_t bytes;
  bool launched;
};

// A user module built once with these kernels; the cache holds its source split per kernel
// ("<key>_<8 hex>" definitions after a shared prologue of 2000 bytes).
void add_module(Report& report, const std::string& name, const std::string& hash, double ms,
                const std::vector<Sized>& kernels, const std::string& device = "cpu", int block_dim = 0) {
  std::vector<KernelInfo> infos;
  ModuleSource source{"wp_" + name + "_" + hash, 2000, 0, 0, {}, 2000};
  for (const auto& kernel : kernels) {
    infos.push_back(kernel_in(kernel.key, kFolder + name + ".py", 10, name));
    source.kernels.push_back({kernel.key + "_1234abcd", kernel.bytes, 0});
    source.source_bytes += kernel.bytes;
    ++source.forward_kernels;
    if (!kernel.launched) continue;
    LaunchSignature launch = testing::launch_of(kernel.key, 64);
    launch.module = name;
    launch.device = device;
    launch.block_dim = block_dim;
    testing::launches(report).append(launch);
  }
  report.module_events.push_back(snapshot_load(name, hash, ms, std::move(infos), {}, device));
  report.cache.modules.push_back(std::move(source));
}

Report siblings() {
  Report report = testing::clean_report(3000.0);
  report.module_events.clear();
  report.cache.modules.clear();
  testing::launches(report) = {};
  add_module(report, "physics", "1111111", 800.0, {{"integrate", 4000, true}, {"collide", 4000, true}});
  add_module(report, "shading", "2222222", 900.0, {{"shade", 2000, true}, {"debug_view", 16000, false}});
  add_module(report, "export", "3333333", 700.0, {{"pack", 2000, true}, {"to_table", 10000, false}});
  return report;
}

TEST(KernelUsage, CountsCompiledAgainstLaunchedAndWeighsTheNeverLaunched) {
  const auto usage = kernel_usage(siblings());
  ASSERT_EQ(usage.size(), 3u);
  const ModuleUse& shading = usage[1];
  EXPECT_EQ(shading.name, "shading");
  EXPECT_EQ(shading.kernels.size(), 2u);
  EXPECT_EQ(shading.launched(), 1u);
  EXPECT_EQ(shading.never_launched(), 1u);
  // debug_view is 16000 of the 20000 bytes: 80% of the 900 ms build.
  EXPECT_DOUBLE_EQ(shading.unlaunched_share.value(), 0.8);
  EXPECT_DOUBLE_EQ(shading.unlaunched_ms.value(), 720.0);
  EXPECT_EQ(usage[0].never_launched(), 0u);
  EXPECT_DOUBLE_EQ(usage[0].unlaunched_ms.value(), 0.0);
}

TEST(KernelUsage, AModuleNoneOfWhoseKernelsRanCostsItsWholeBuild) {
  Report report = siblings();
  add_module(report, "tools", "4444444", 500.0, {{"dump", 3000, false}, {"inspect", 1000, false}});
  const auto usage = kernel_usage(report);
  ASSERT_EQ(usage.size(), 4u);
  EXPECT_EQ(usage[3].name, "tools");
  EXPECT_EQ(usage[3].launched(), 0u);
  // The table and the finding read this one number: the whole 500 ms, not a share of it.
  EXPECT_DOUBLE_EQ(usage[3].unlaunched_ms.value(), 500.0);
}

TEST(KernelUsage, MangledNamesMapToTheLongestKernelKey) {
  EXPECT_EQ(kernel_key_of("fill_1234abcd", {"fill", "fill_all"}), "fill");
  EXPECT_EQ(kernel_key_of("fill_all_1234abcd", {"fill", "fill_all"}), "fill_all");
  EXPECT_EQ(kernel_key_of("fill", {"fill"}), "fill");  // strip_hash
  EXPECT_FALSE(kernel_key_of("filler_1234abcd", {"fill"}).has_value());
}

TEST(KernelUsage, NeverLaunchedFindingIsTheUsersWithItsEstimate) {
  const Diagnosis diagnosis = diagnose(siblings());
  const auto found = std::find_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                                  [](const Finding& f) { return f.mechanism == Mechanism::never_launched; });
  ASSERT_NE(found, diagnosis.findings.end());
  EXPECT_TRUE(found->yours());
  std::string evidence;
  for (const auto& line : found->evidence) evidence += line + "\n";
  EXPECT_THAT(evidence, HasSubstr("module shading on cpu: 2 kernel(s) compiled, 1 launched; never launched: debug_view "
                                  "(80% of its generated source)"));
  EXPECT_THAT(evidence, HasSubstr("never launched: to_table"));
  // 720 ms (shading) + 700 × 10000/14000 (export).
  EXPECT_NEAR(found->cost_ms.value(), 720.0 + 500.0, 1e-9);
  EXPECT_THAT(found->cost_basis, HasSubstr("estimate"));
  EXPECT_THAT(found->limits, HasSubstr("Other workloads"));
  // The facts: the modules and, module by module, the kernels no launch used.
  EXPECT_EQ(found->facts.event, analysis::EventKind::kernels_never_launched);
  EXPECT_EQ(found->facts.modules, (std::vector<std::string>{"shading", "export"}));
  std::vector<std::string> kernels;
  for (const auto& kernel : found->facts.kernels) kernels.push_back(kernel.name);
  EXPECT_EQ(kernels, (std::vector<std::string>{"debug_view", "to_table"}));
  EXPECT_EQ(found->cost().kind, analysis::CostKind::estimated);
}

// Issue 50: a maintainer's run of one test file from a checkout. The package's modules are the
// user's code, but the tests only call them: what this part of the suite did not launch is a
// fact for the maintainers, never "Move the kernels". Kernels the test file defines itself are
// seen whole by the run, and keep the finding.
TEST(KernelUsage, UnderATestRunTheCodeItCallsGetsAFactNotAMove) {
  Report report = siblings();
  for (auto& event : report.module_events) event.detail->test = TestContext{"tests/test_render.py::test_shade", {}, ""};
  Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(std::count_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                          [](const Finding& f) { return f.mechanism == Mechanism::never_launched; }),
            0);
  const auto fact = std::find_if(diagnosis.facts.begin(), diagnosis.facts.end(),
                                 [](const std::string& text) { return text.starts_with("never-launched, for the"); });
  ASSERT_NE(fact, diagnosis.facts.end());
  EXPECT_THAT(*fact, HasSubstr("shading on cpu: 2 kernel(s) compiled, 1 launched; never launched: debug_view"));
  EXPECT_THAT(*fact, HasSubstr("one run is no reason to move them"));
  EXPECT_THAT(*fact, ::testing::Not(HasSubstr("Move the kernels")));

  // The same kernels defined in the test file the id names: the run saw all of that file.
  for (auto& event : report.module_events) {
    for (auto& kernel : event.detail->kernels) kernel.file = kFolder + "tests/test_render.py";
  }
  diagnosis = diagnose(report);
  EXPECT_EQ(std::count_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                          [](const Finding& f) { return f.mechanism == Mechanism::never_launched; }),
            1);
}

// A module loaded and never launched at all (an explicit load; a test of loading does it on
// purpose): moving its kernels would move the same build, so it is a fact, not never-launched
// (issue 40's field review: Warp's test_module_hashing).
TEST(KernelUsage, AModuleLoadedWithoutAnyLaunchIsAFactNotAFinding) {
  Report report = testing::clean_report(3000.0);
  report.module_events.clear();
  report.cache.modules.clear();
  testing::launches(report) = {};
  add_module(report, "physics", "1111111", 800.0, {{"integrate", 4000, true}});
  add_module(report, "simple_module", "2222222", 900.0, {{"only_kernel", 16000, false}});
  const Diagnosis diagnosis = diagnose(report);
  EXPECT_EQ(std::count_if(diagnosis.findings.begin(), diagnosis.findings.end(),
                          [](const Finding& f) { return f.mechanism == Mechanism::never_launched; }),
            0);
  EXPECT_TRUE(std::any_of(diagnosis.facts.begin(), diagnosis.facts.end(), [](const std::string& fact) {
    return fact.starts_with("Loaded without launching any of their kernels") &&
           fact.find("simple_module on cpu (1 kernel(s), built 1 time(s)") != std::string::npos;
  }));
}

TEST(Boundaries, SiblingModulesRegroupByLifecycle) {
  const Report report = siblings();
  const auto proposal = propose_boundaries(report, kernel_usage(report), FixedCostReference{300.0, "calibrated"});
  EXPECT_TRUE(proposal.changes);
  EXPECT_EQ(proposal.current_builds, 3);
  ASSERT_EQ(proposal.modules.size(), 2u);
  const ProposedModule& launched = proposal.modules[0];
  EXPECT_TRUE(launched.launched);
  EXPECT_EQ(launched.builds, 1);
  EXPECT_EQ(launched.kernels.size(), 4u);
  EXPECT_THAT(launched.from_modules, ElementsAre("export", "physics", "shading"));
  const ProposedModule& unused = proposal.modules[1];
  EXPECT_FALSE(unused.launched);
  EXPECT_EQ(unused.builds, 0);
  EXPECT_EQ(unused.kernels.size(), 2u);
  EXPECT_EQ(proposal.proposed_builds, 1);
  EXPECT_EQ(proposal.builds_removed(), 2);
  // Fitted: (2400 − 3 × 300) ms over the 44000 bytes of source the three builds compiled; the
  // group holds 12000 bytes of kernels plus the average 2000-byte prologue.
  const double rate = (2400.0 - 900.0) / 44000.0;
  ASSERT_TRUE(proposal.proposed_ms.has_value());
  EXPECT_NEAR(*proposal.proposed_ms, 300.0 + rate * 14000.0, 1e-9);
  EXPECT_NEAR(proposal.ms_removed().value(), 2400.0 - (300.0 + rate * 14000.0), 1e-9);
  EXPECT_THAT(proposal.basis, HasSubstr("verify by applying the grouping and running `compare`"));
}

TEST(Boundaries, DifferentOptionsStayApart) {
  Report report = siblings();
  report.module_events[1].detail->options["max_unroll"] = "4";
  const auto proposal = propose_boundaries(report, kernel_usage(report), std::nullopt);
  const auto with_options = std::find_if(proposal.modules.begin(), proposal.modules.end(),
                                         [](const ProposedModule& m) { return m.distinct_options == "max_unroll=4"; });
  ASSERT_NE(with_options, proposal.modules.end());
  EXPECT_EQ(with_options->kernels.size(), 1u);  // shade; debug_view goes with the never-launched of its options
  EXPECT_EQ(proposal.proposed_builds, 2);
}

TEST(Boundaries, EachStableBlockDimIsOneModuleAndAVaryingOneStaysAlone) {
  Report report = siblings();
  report.module_events.clear();
  report.cache.modules.clear();
  testing::launches(report) = {};
  add_module(report, "solver", "4444444", 900.0, {{"a", 1000, true}, {"b", 1000, false}, {"c", 1000, false}}, "cuda:0",
             128);
  // b at 256, c at both 128 and 256.
  for (const auto& [kernel, block_dim] : std::vector<std::pair<std::string, int>>{{"b", 256}, {"c", 128}, {"c", 256}}) {
    LaunchSignature launch = testing::launch_of(kernel, 64);
    launch.module = "solver";
    launch.device = "cuda:0";
    launch.block_dim = block_dim;
    testing::launches(report).append(launch);
  }
  const auto proposal = propose_boundaries(report, kernel_usage(report), std::nullopt);
  ASSERT_EQ(proposal.modules.size(), 3u);
  int varying = 0;
  for (const auto& module : proposal.modules) {
    if (module.varying_block_dim) {
      ++varying;
      EXPECT_EQ(module.kernels.size(), 1u);
      EXPECT_EQ(module.builds, 2);
    } else {
      EXPECT_EQ(module.builds, 1);
      EXPECT_TRUE(module.block_dim == 128 || module.block_dim == 256);
    }
  }
  EXPECT_EQ(varying, 1);
  EXPECT_EQ(proposal.proposed_builds, 4);
}

TEST(Boundaries, WarpsAndGeneratedModulesCannotMove) {
  Report report = siblings();
  report.instrumentation.warp_dir = kWarpDir;
  report.module_events.push_back(snapshot_load(
      "warp.sparse", "5555555", 2000.0,
      {kernel_in("_bsr_get_block_row", std::string(kWarpDir) + "_src/sparse.py", 1, "warp._src.sparse")}));
  report.module_events.push_back(
      snapshot_load("__main__.form_1722f245", "6666666", 500.0,
                    {kernel_in("form_1722f245", std::string(kWarpDir) + "_src/fem/integrate.py", 900,
                               "warp._src.fem.integrate", "get_kernel.<locals>.integrate_kernel_fn")}));
  const auto proposal = propose_boundaries(report, kernel_usage(report), std::nullopt);
  ASSERT_EQ(proposal.unmovable.size(), 2u);
  EXPECT_EQ(proposal.unmovable[0].module, "warp.sparse");
  EXPECT_EQ(proposal.unmovable[1].owner, "generated at run time by warp.fem from your code in __main__");
  EXPECT_EQ(proposal.current_builds, 3);  // only the user's modules are counted
}

TEST(Boundaries, AWellGroupedProgramGetsNothingToMove) {
  Report report = testing::clean_report(3000.0);
  report.module_events.clear();
  report.cache.modules.clear();
  testing::launches(report) = {};
  add_module(report, "__main__", "7777777", 900.0, {{"a", 1000, true}, {"b", 1000, true}});
  const auto proposal = propose_boundaries(report, kernel_usage(report), std::nullopt);
  EXPECT_FALSE(proposal.changes);
  EXPECT_EQ(proposal.builds_removed(), 0);
}

}  // namespace
}  // namespace wcp::analysis
