// Whose code a module or a loading stack is: the user's, a dependency's, Warp's, and whether
// Warp generated it from the user's code (warp.fem integrands). Reports shaped like the real
// ones of `python -m warp.examples.fem.example_diffusion` and of an app using a library.
#include "facts/ownership.h"

#include <gtest/gtest.h>

#include "report_fixtures.h"

namespace wcp {
namespace {

using testing::kernel_in;
using testing::kWarpDir;
using testing::snapshot_load;

const std::string kWarp = kWarpDir;
const std::string kExample = kWarp + "examples/fem/example_diffusion.py";

SourceLocation frame(const std::string& file, int line, const std::string& function) {
  return {file, line, function};
}

// The example run as `python -m`: its file is inside the warp package, yet it is the program.
Report fem_example() {
  Report report;
  report.warp_version = "1.19.0";
  report.instrumentation.warp_dir = kWarp;
  const std::vector<SourceLocation> stack{frame(kWarp + "_src/context.py", 5259, "load"),
                                          frame(kWarp + "_src/context.py", 12041, "launch"),
                                          frame(kWarp + "_src/fem/integrate.py", 2264, "integrate"),
                                          frame(kExample, 113, "step"),
                                          frame(kExample, 187, "<module>"),
                                          frame("<frozen runpy>", 88, "_run_code")};
  report.module_events.push_back(snapshot_load(
      "__main__.diffusion_form_324d2c15", "d046e5f", 700.0,
      {kernel_in("diffusion_form_324d2c15", kWarp + "_src/fem/integrate.py", 1188, "warp._src.fem.integrate",
                 "get_integrate_bilinear_local_kernel.<locals>.integrate_kernel_fn")},
      stack));
  report.module_events.push_back(
      snapshot_load("warp.sparse", "28a4ccb", 2300.0,
                    {kernel_in("_bsr_get_block_row", kWarp + "_src/sparse.py", 100, "warp._src.sparse")}, stack));
  report.module_events.push_back(
      snapshot_load("_bsr_axpy_add_block_afd50a07", "dd4d7a8", 640.0,
                    {kernel_in("_bsr_axpy_add_block", kWarp + "_src/sparse.py", 3423, "warp._src.sparse")}, stack));
  report.module_events.push_back(snapshot_load(
      "warp._src.fem.space.restriction.dyn.fill_element_node_indices_705d2fe1", "cea050d", 1000.0,
      {kernel_in("fill_element_node_indices_705d2fe1", kWarp + "_src/fem/space/restriction.py", 68,
                 "warp._src.fem.space.restriction", "SpaceRestriction.rebuild.<locals>.fill_element_node_indices")},
      stack));
  return report;
}

TEST(Ownership, WarpFemModulesNamedAfterTheUsersModuleAreGeneratedFromTheUsersCode) {
  const Report report = fem_example();
  const CodeOwnership ownership(report);
  const auto form = ownership.of_module("__main__.diffusion_form_324d2c15");
  EXPECT_EQ(form.owner, Owner::user);
  ASSERT_TRUE(form.generator.has_value());
  EXPECT_EQ(*form.generator, Owner::warp);
  EXPECT_EQ(form.generated_by, "warp.fem");
  EXPECT_EQ(form.python_module, "__main__");
  EXPECT_FALSE(form.users_to_change());
  EXPECT_EQ(form.describe(), "generated at run time by warp.fem from your code in __main__");
}

TEST(Ownership, WarpsOwnModulesAreWarpsWithItsVersion) {
  const Report report = fem_example();
  const CodeOwnership ownership(report);
  for (const char* name : {"warp.sparse", "_bsr_axpy_add_block_afd50a07",
                           "warp._src.fem.space.restriction.dyn.fill_element_node_indices_705d2fe1"}) {
    const auto owner = ownership.of_module(name);
    EXPECT_EQ(owner.owner, Owner::warp) << name;
    ASSERT_TRUE(owner.package.has_value()) << name;
    EXPECT_EQ(owner.package->name, "warp-lang");
    EXPECT_FALSE(owner.users_to_change()) << name;
  }
  EXPECT_TRUE(ownership.of_module("warp._src.fem.space.restriction.dyn.fill_element_node_indices_705d2fe1").generated);
  EXPECT_EQ(ownership.of_module("warp.sparse").describe(), "Warp's own code (warp-lang 1.19.0)");
}

TEST(Ownership, TheExampleRunWithDashMIsTheProgramNotWarpsCore) {
  const Report report = fem_example();
  const CodeOwnership ownership(report);
  EXPECT_EQ(ownership.owner_of_file(kExample), Owner::user);
  EXPECT_FALSE(ownership.in_warp_core(kExample));
  EXPECT_TRUE(ownership.in_warp_core(kWarp + "_src/utils.py"));
  EXPECT_EQ(ownership.owner_of_file(kWarp + "examples/fem/utils.py"), Owner::warp);  // a helper, not the program
  EXPECT_FALSE(ownership.in_warp_core(kWarp + "examples/fem/utils.py"));
  EXPECT_EQ(ownership.owner_of_file("<frozen runpy>"), Owner::python);
  EXPECT_EQ(ownership.owner_of_file("/usr/lib/python3.11/threading.py"), Owner::python);
}

// A maintainer's `python -m pytest tests/test_solver.py` from a checkout (issue 40): the
// runner's installed __main__ is the outermost frame, yet the code under test is the subject.
TEST(Ownership, ATestRunnersEntryIsNotTheUsersCodeTheSuiteInACheckoutIs) {
  const std::string runner = "/venv/lib/python3.11/site-packages/pytest/__main__.py";
  const std::string test_file = "/proj/tests/test_solver.py";
  for (const std::string& entry : {runner, std::string("/venv/bin/pytest")}) {
    Report report;
    report.instrumentation.warp_dir = kWarp;
    const std::vector<SourceLocation> stack{frame(kWarp + "_src/context.py", 5259, "load"),
                                            frame(test_file, 40, "test_step"),
                                            frame("/venv/lib/python3.11/site-packages/_pytest/python.py", 157, "call"),
                                            frame(entry, 9, "<module>"), frame("<frozen runpy>", 88, "_run_code")};
    report.module_events.push_back(snapshot_load(
        "tests.test_solver", "aaaaaaa", 300.0, {kernel_in("step", test_file, 12, "tests.test_solver", "step")}, stack));
    const CodeOwnership ownership(report);
    EXPECT_NE(ownership.owner_of_file(entry), Owner::user) << entry;
    EXPECT_EQ(ownership.owner_of_file(test_file), Owner::user) << entry;
  }
}

TEST(Ownership, RebuildTriggerIsTheInnermostFrameOutsideWarpsCoreAndTheUsersFrames) {
  const Report report = fem_example();
  const CodeOwnership ownership(report);
  LoadDetail detail;
  detail.stack = {frame(kWarp + "_src/context.py", 5259, "load"),
                  frame(kWarp + "_src/utils.py", 1400, "array_cast"),
                  frame(kWarp + "_src/fem/field/nodal_field.py", 300, "_make"),
                  frame(kExample, 160, "step"),
                  frame(kExample, 220, "<module>"),
                  frame("<frozen runpy>", 88, "_run_code")};
  const TriggerFrames frames = ownership.trigger_of(detail);
  ASSERT_TRUE(frames.site.has_value());
  EXPECT_EQ(frames.site->line, 160);  // never "<frozen runpy>:88"
  ASSERT_TRUE(frames.user_outermost.has_value());
  EXPECT_EQ(frames.user_outermost->line, 220);
  EXPECT_EQ(frames.user_innermost->line, 160);
}

TEST(Ownership, ADependencysKernelsAndTheUsersCallIntoIt) {
  Report report;
  report.instrumentation.warp_dir = kWarp;
  const std::string solver = "/venv/lib/python3.11/site-packages/physlib/solver.py";
  KernelInfo step = kernel_in("step", solver, 40, "physlib.solver");
  step.package = Package{"physlib", "0.2.0"};
  const std::vector<SourceLocation> stack{frame(kWarp + "_src/context.py", 5259, "load"), frame(solver, 90, "advance"),
                                          frame("/home/me/proj/app.py", 30, "run"),
                                          frame("/home/me/proj/app.py", 50, "<module>")};
  report.module_events.push_back(snapshot_load("physlib.solver", "1111111", 900.0, {step}, stack));
  report.module_events.push_back(
      snapshot_load("__main__", "2222222", 300.0, {kernel_in("mine", "/home/me/proj/app.py", 10)}, stack));
  const CodeOwnership ownership(report);
  const auto library = ownership.of_module("physlib.solver");
  EXPECT_EQ(library.owner, Owner::dependency);
  EXPECT_EQ(library.describe(), "a dependency (physlib 0.2.0)");
  EXPECT_TRUE(ownership.of_module("__main__").users_to_change());
  const TriggerFrames frames = ownership.trigger_of(*report.module_events[0].detail);
  EXPECT_EQ(frames.site->file, solver);  // the innermost frame outside Warp's core is the library's
  EXPECT_EQ(frames.user_innermost->line, 30);
  EXPECT_EQ(frames.user_outermost->line, 50);
}

TEST(Ownership, AKernelMadeInAFunctionIsStillTheUsersButGenerated) {
  Report report;
  report.module_events.push_back(
      snapshot_load("__main__", "3333333", 300.0,
                    {kernel_in("make__locals__k", "/home/me/proj/app.py", 5, "__main__", "make.<locals>.k")}));
  const auto owner = CodeOwnership(report).of_module("__main__");
  EXPECT_TRUE(owner.users_to_change());
  EXPECT_TRUE(owner.generated);
  EXPECT_EQ(owner.generated_by, "make() in app.py");
}

TEST(Ownership, WithoutSnapshotsItGuessesFromTheNameAndSaysSo) {
  Report report;
  report.warp_version = "1.19.0";
  const CodeOwnership ownership(report);
  const auto warp = ownership.of_module("warp.utils");
  EXPECT_EQ(warp.owner, Owner::warp);
  EXPECT_FALSE(warp.from_snapshot);
  EXPECT_NE(warp.describe().find("guessed from the module name"), std::string::npos);
  EXPECT_EQ(ownership.of_module("__main__").owner, Owner::user);
  // An installed warp package is recognised even when the report does not name its folder.
  EXPECT_EQ(ownership.owner_of_file("/usr/local/lib/python3.12/dist-packages/warp/_src/context.py"), Owner::warp);
}

}  // namespace
}  // namespace wcp
