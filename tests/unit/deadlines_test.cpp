#include "analysis/deadlines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report_fixtures.h"

namespace wcp::analysis {
namespace {

using ::testing::HasSubstr;

ModuleCreation created(const std::string& name, double t, SourceLocation site, std::optional<SourceLocation> entry) {
  ModuleCreation creation;
  creation.t_s = t;
  creation.name = name;
  creation.site = std::move(site);
  creation.entry_site = std::move(entry);
  return creation;
}

// The late_import shape: app.py imports its kernel package (line 13) before `import warp`.
Report imports_kernels_first() {
  Report report = testing::clean_report();
  report.option_record = OptionRecord{};
  report.option_record->modules_created.push_back(created("physics.solver", 0.2,
                                                          {"/proj/physics/solver.py", 8, "<module>"},
                                                          SourceLocation{"/proj/app.py", 13, "<module>"}));
  report.option_record->modules_created.push_back(
      created("later", 0.9, {"/proj/later.py", 3, "<module>"}, SourceLocation{"/proj/app.py", 30, "<module>"}));
  return report;
}

TEST(Deadlines, TheEntryScriptLineThatCreatedTheModuleIsTheDeadline) {
  const auto deadline = setting_deadline(imports_kernels_first(), {"physics.solver", "later"});
  ASSERT_TRUE(deadline.has_value());
  EXPECT_EQ(deadline->kind, SettingDeadline::Kind::entry_script_line);
  EXPECT_EQ(deadline->before.line, 13);  // the first creation, not the later one
  EXPECT_EQ(deadline->module, "physics.solver");
  const std::string advice = config_deadline_advice(*deadline, "enable_backward", "False");
  EXPECT_THAT(advice, HasSubstr("Set wp.config.enable_backward = False in proj/app.py before line 13,"));
  EXPECT_THAT(advice, HasSubstr("if `import warp` comes later in that file, import it there"));
  EXPECT_THAT(advice, HasSubstr("wp.set_module_options({\"enable_backward\": False})"));
}

// A maintainer's `python -m pytest tests/test_solver.py` (issue 40): the entry script is the
// installed runner's own __main__ (or its console-script stub), never "your code"; a global
// setting goes where the test session starts, never into a file the runner imports.
TEST(Deadlines, UnderATestRunnerTheSettingGoesWhereTheSessionStarts) {
  for (const char* runner : {"/venv/lib/python3.11/site-packages/pytest/__main__.py", "/venv/bin/pytest"}) {
    Report report = testing::clean_report();
    report.option_record = OptionRecord{};
    report.option_record->modules_created.push_back(created("tests.test_solver", 0.2,
                                                            {"/proj/tests/test_solver.py", 113, "<module>"},
                                                            SourceLocation{runner, 9, "<module>"}));
    const auto deadline = setting_deadline(report, {"tests.test_solver"});
    ASSERT_TRUE(deadline.has_value()) << runner;
    EXPECT_EQ(deadline->kind, SettingDeadline::Kind::runner_session) << runner;
    const std::string advice = config_deadline_advice(*deadline, "enable_backward", "False");
    EXPECT_THAT(advice, HasSubstr("pytest_configure in its conftest.py"));
    EXPECT_THAT(advice, ::testing::Not(HasSubstr("__main__.py")));
    EXPECT_THAT(advice, ::testing::Not(HasSubstr("before line")));
    EXPECT_THAT(config_deadline_short_advice(*deadline, "enable_backward", "False"),
                HasSubstr("where the test session starts"));
  }
}

TEST(Deadlines, OnlyTheModulesConcernedCount) {
  const auto deadline = setting_deadline(imports_kernels_first(), {"later"});
  ASSERT_TRUE(deadline.has_value());
  EXPECT_EQ(deadline->before.line, 30);
}

TEST(Deadlines, WithoutAnEntryScriptLineTheKernelDefinitionBoundsIt) {
  Report report = imports_kernels_first();
  report.option_record->modules_created[0].entry_site.reset();
  const auto deadline = setting_deadline(report, {"physics.solver"});
  ASSERT_TRUE(deadline.has_value());
  EXPECT_EQ(deadline->kind, SettingDeadline::Kind::kernel_definition);
  EXPECT_EQ(deadline->before.line, 8);
  EXPECT_THAT(config_deadline_advice(*deadline, "enable_backward", "False"),
              HasSubstr("before physics/solver.py:8, where module physics.solver's first kernel is defined"));
}

TEST(Deadlines, WithoutACreationRecordTheLoadSnapshotsNameTheFirstKernel) {
  Report report = testing::clean_report();
  report.module_events[0].detail = LoadDetail{};
  KernelInfo kernel;
  kernel.key = "fill";
  kernel.file = "/proj/app.py";
  kernel.line = 21;
  report.module_events[0].detail->kernels = {kernel};
  const auto deadline = setting_deadline(report, {report.module_events[0].name});
  ASSERT_TRUE(deadline.has_value());
  EXPECT_EQ(deadline->kind, SettingDeadline::Kind::kernel_definition);
  EXPECT_EQ(deadline->before.line, 21);
}

TEST(Deadlines, NoRecordNoDeadline) {
  Report report = testing::clean_report();
  report.module_events[0].detail.reset();
  EXPECT_FALSE(setting_deadline(report, {report.module_events[0].name}).has_value());
}

}  // namespace
}  // namespace wcp::analysis
