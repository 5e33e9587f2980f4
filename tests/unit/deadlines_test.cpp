#include "analysis/deadlines.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "render/finding_text.h"
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
    EXPECT_THAT(advice, HasSubstr("at the top of the conftest.py in its rootdir"));
    EXPECT_THAT(advice, ::testing::Not(HasSubstr("__main__.py")));
    EXPECT_THAT(advice, ::testing::Not(HasSubstr("before line")));
    EXPECT_THAT(render::config_deadline_short_advice(*deadline, "enable_backward", "False"),
                HasSubstr("where the test session starts"));
  }
}

// Issue 50: a checkout's tests of an installed package (`python -m pytest tests/linalg/math_test.py`)
// define no kernels of their own, so every kernel is installed code; the builds ran inside tests,
// so the installed entry file is still the runner. The advice names this suite's files, found
// from the run: the rootdir's conftest.py (from the test id and the test file's path) and the
// test file; never pytest's own __main__.py.
Report installed_package_under_pytest(const std::string& test_id) {
  const std::string runner = "/venv/lib/python3.11/site-packages/pytest/__main__.py";
  const std::string solver = "/venv/lib/python3.11/site-packages/linalg/solve.py";
  Report report = testing::clean_report();
  report.module_events.clear();
  ModuleEvent load = testing::snapshot_load("linalg.solve", "abc1234", 900.0,
                                            {testing::kernel_in("lu_solve", solver, 40, "linalg.solve")},
                                            {{solver, 88, "lu_solve"},
                                             {"/home/me/proj/tests/linalg/math_test.py", 21, "test_lu_solve0"},
                                             // The suite's own helper that calls each test: not the test file.
                                             {"/home/me/proj/tests/unittest_utils.py", 90, "run_test"},
                                             {"/venv/lib/python3.11/site-packages/_pytest/python.py", 157, "call"},
                                             {runner, 9, "<module>"}});
  load.detail->test = TestContext{test_id, TestPhase::call, ""};
  report.module_events.push_back(load);
  report.option_record = OptionRecord{};
  report.option_record->modules_created.push_back(
      created("linalg.solve", 0.2, {solver, 40, "<module>"}, SourceLocation{runner, 9, "<module>"}));
  return report;
}

TEST(Deadlines, UnderPytestTheRootdirsConftestAndTheTestFileAreNamed) {
  const auto deadline =
      setting_deadline(installed_package_under_pytest("tests/linalg/math_test.py::DenseLUTest::test_lu_solve0"), {});
  ASSERT_TRUE(deadline.has_value());
  EXPECT_EQ(deadline->kind, SettingDeadline::Kind::runner_session);
  EXPECT_EQ(deadline->session_setup, "/home/me/proj/conftest.py");
  EXPECT_EQ(deadline->test_file, "/home/me/proj/tests/linalg/math_test.py");
  const std::string short_advice = render::config_deadline_short_advice(*deadline, "enable_backward", "False");
  EXPECT_EQ(short_advice,
            "Set wp.config.enable_backward = False at the top of /home/me/proj/conftest.py (create it if there is "
            "none) if no test of the suite needs otherwise.");
  const std::string advice = config_deadline_advice(*deadline, "enable_backward", "False");
  EXPECT_THAT(advice, HasSubstr("this run saw"));  // its scope: one part of the suite
  for (const auto& text : {advice, short_advice}) {
    EXPECT_THAT(text, ::testing::Not(HasSubstr("pytest/__main__.py")));
    EXPECT_THAT(text, ::testing::Not(HasSubstr("before line")));
  }
}

TEST(Deadlines, AnIdOutsideTheRootdirNamesTheTestFileInstead) {
  const auto deadline =
      setting_deadline(installed_package_under_pytest("../proj/tests/linalg/math_test.py::test_lu_solve0"), {});
  ASSERT_TRUE(deadline.has_value());
  EXPECT_FALSE(deadline->session_setup.has_value());
  EXPECT_THAT(render::config_deadline_short_advice(*deadline, "enable_backward", "False"), HasSubstr("at the top of "));
  EXPECT_THAT(render::config_deadline_short_advice(*deadline, "enable_backward", "False"),
              HasSubstr("math_test.py, right after `import warp`, if no other test"));
}

// `python -m unittest test_solver`: the entry file is the standard library's unittest/__main__.py,
// never "your code"; the setting goes at the top of the test module the run started from.
TEST(Deadlines, UnderUnittestTheTestModuleIsNamedNotTheRunner) {
  const std::string runner = "/usr/lib/python3.11/unittest/__main__.py";
  const std::string test_file = "/home/me/proj/tests/test_solver.py";
  Report report = testing::clean_report();
  report.module_events.clear();
  ModuleEvent load = testing::snapshot_load("test_solver", "abc1234", 900.0,
                                            {testing::kernel_in("double", test_file, 32, "test_solver")},
                                            {{test_file, 35, "test_double"},
                                             {"/usr/lib/python3.11/unittest/case.py", 589, "_callTestMethod"},
                                             {runner, 18, "<module>"}});
  load.detail->test = TestContext{"test_solver.TestSolver.test_double", TestPhase::call, ""};
  report.module_events.push_back(load);
  report.option_record = OptionRecord{};
  report.option_record->modules_created.push_back(
      created("test_solver", 0.2, {test_file, 20, "<module>"}, SourceLocation{runner, 18, "<module>"}));
  const auto deadline = setting_deadline(report, {});
  ASSERT_TRUE(deadline.has_value());
  EXPECT_EQ(deadline->kind, SettingDeadline::Kind::runner_session);
  EXPECT_EQ(deadline->test_file, test_file);
  EXPECT_FALSE(deadline->session_setup.has_value());
  // The module is the test file's own: its module option reaches it alone, not every module.
  const std::string short_advice = render::config_deadline_short_advice(*deadline, "enable_backward", "False");
  EXPECT_EQ(short_advice,
            "Call wp.set_module_options({\"enable_backward\": False}) at the top of tests/test_solver.py: it "
            "reaches that file's module only.");
  EXPECT_THAT(config_deadline_advice(*deadline, "enable_backward", "False"),
              ::testing::Not(HasSubstr("unittest/__main__.py")));
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
