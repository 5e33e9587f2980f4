// Every finding about a module or a call has an owner (issue 40 item 3, docs/mechanisms.md "Whose
// code a finding is about"); only findings about the whole program (its cache, processes, build
// schedule) keep `owner` absent, and those name no module as their subject. Held on every
// recorded report of the test data (the fixtures on CUDA, the dependency-only run, the original
// probe's) and on the findings families that gather modules or a call.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "analysis/diagnose.h"
#include "codec/report_json.h"

namespace wcp {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> recorded_reports() {
  std::vector<fs::path> paths;
  for (const auto* folder : {"cuda-recorded/probe", "reports"}) {
    for (const auto& entry : fs::directory_iterator(fs::path(WCP_TEST_DATA_DIR) / folder)) {
      if (entry.path().extension() == ".json") paths.push_back(entry.path());
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(FindingOwner, EveryFindingAboutAModuleHasAnOwner) {
  const auto paths = recorded_reports();
  ASSERT_GE(paths.size(), 10U);
  std::size_t with_module = 0;
  for (const auto& path : paths) {
    const auto diagnosis = analysis::diagnose(load_report(path.string()));
    for (const auto& finding : diagnosis.findings) {
      if (finding.module.empty()) continue;
      ++with_module;
      EXPECT_TRUE(finding.owner.has_value()) << path.filename() << ": " << code(finding.mechanism) << " about module "
                                             << finding.module << " has no owner";
    }
  }
  EXPECT_GT(with_module, 10U);  // the check saw findings to hold
}

// The families whose module was once left without an owner: the main script built twice (the
// program's own), a warp.config setting that missed its deadline (a call, whose file says whose),
// and the process and cache findings, which are the whole program's and name no module as their
// subject (the modules they list are what they touched).
TEST(FindingOwner, ProcessAndDeadlineFindingsOnRecordedRuns) {
  const fs::path probe = fs::path(WCP_TEST_DATA_DIR) / "cuda-recorded" / "probe";
  const auto spawn = analysis::diagnose(load_report((probe / "spawn_pool_app.json").string()));
  bool main_twice = false, parallel = false;
  for (const auto& finding : spawn.findings) {
    if (finding.mechanism == Mechanism::main_script_twice) {
      main_twice = true;
      ASSERT_TRUE(finding.owner.has_value());
      EXPECT_EQ(finding.owner->owner, Owner::user);
      EXPECT_TRUE(finding.yours());
      EXPECT_EQ(finding.facts.event, analysis::EventKind::main_script_compiled_twice);
      ASSERT_FALSE(finding.facts.identities.empty());
      EXPECT_EQ(finding.facts.identities[0].module, "__mp_main__");
      EXPECT_FALSE(finding.facts.identities[0].hash.empty());
    }
    if (finding.mechanism == Mechanism::parallel_cold_misses) {
      parallel = true;
      EXPECT_FALSE(finding.owner.has_value());
      EXPECT_EQ(finding.module, "");
      EXPECT_THAT(finding.modules, ::testing::Contains("__mp_main__"));
      // Each identity built at once, with the processes that built it (two or more).
      EXPECT_EQ(finding.facts.event, analysis::EventKind::compiled_at_once);
      ASSERT_FALSE(finding.facts.identities.empty());
      for (const auto& identity : finding.facts.identities) {
        EXPECT_THAT(finding.modules, ::testing::Contains(identity.module));
        EXPECT_GE(identity.processes, 2U);
      }
    }
  }
  EXPECT_TRUE(main_twice);
  EXPECT_TRUE(parallel);
  const auto deadline = analysis::diagnose(load_report((probe / "option_deadline_app.json").string()));
  bool found = false;
  for (const auto& finding : deadline.findings) {
    if (finding.mechanism != Mechanism::config_deadline) continue;
    found = true;
    ASSERT_TRUE(finding.owner.has_value());
    EXPECT_EQ(finding.owner->owner, Owner::user);
    // The fix: enable_backward, set before a line of this user's program.
    EXPECT_EQ(finding.facts.fix.kind, analysis::FixKind::set_before_deadline);
    ASSERT_EQ(finding.facts.fix.settings.size(), 1U);
    EXPECT_EQ(finding.facts.fix.settings[0].key, "enable_backward");
    EXPECT_TRUE(finding.facts.fix.settings[0].deadline.users_code);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace wcp
