// The budgets on the CUDA build measured without a GPU (`cuda_arch`, issue 64): the keys as read
// from a budget file, with FILE:LINE errors, and their evaluation on crafted reports: a pass,
// a failure naming the arch, module and kernel, and every way the build can be missing.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "budget/auto_sampling.h"
#include "budget/budget_parse.h"
#include "budget/evaluate.h"
#include "errors.h"
#include "report_fixtures.h"

namespace wcp::budget {
namespace {
// Every helper's name is this file's own: a unity build shares one anonymous namespace between
// the tests of a batch.

const LoadOptions kCudaSchemaOnly{.check_files = false, .baseline_may_be_missing = false};

BudgetFile parse_cuda(const std::string& text) {
  return parse_budget_text(
      text, "/project/budget.yaml", [](const std::string&) -> std::optional<std::string> { return std::nullopt; },
      kCudaSchemaOnly);
}

std::string cuda_error_of(const std::string& text) {
  try {
    parse_cuda(text);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

const std::string kCudaEntry = "commands:\n  - name: a\n    command: [x]\n";

CudaKernelCost cuda_kernel_cost(const std::string& name, double forward_ms, std::optional<double> backward_ms) {
  CudaKernelCost cost;
  cost.kernel = name;
  cost.mangled = name + "_1234abcd";
  cost.forward_optimizer_ms = forward_ms * 0.75;
  cost.forward_codegen_ms = forward_ms * 0.25;
  if (backward_ms) {
    cost.backward_optimizer_ms = *backward_ms * 0.5;
    cost.backward_ptxas_ms = *backward_ms * 0.5;
  }
  return cost;
}

CudaModuleBuild cuda_module_build(const std::string& name, const std::string& hash, double cpu_ms, long long bytes,
                                  std::vector<CudaKernelCost> kernels, int arch = 86) {
  CudaModuleBuild build;
  build.module = name;
  build.hash = hash;
  build.arch = arch;
  build.block_dim = 256;
  build.output_kind = "cubin";
  build.cpu_ms = cpu_ms;
  build.wall_ms = cpu_ms + 10.0;
  build.output_bytes = bytes;
  build.kernels = std::move(kernels);
  return build;
}

// cuda_heavy_backward-like: __main__ with one heavy kernel (backward 4871 ms + forward 817 ms)
// and a light one, beside a small second module; sm_86's CPU summed over the samples 6.37 s.
Report cuda_report() {
  Report report = testing::clean_report();
  CudaBuildRun run;
  run.archs = {86};
  run.workers = 1;
  run.modules = {
      cuda_module_build("__main__", "929589f", 6440.0, 320'000,
                        {cuda_kernel_cost("heavy", 817.0, 4871.0), cuda_kernel_cost("light", 13.0, 18.0)}),
      cuda_module_build("helpers", "abc1234", 300.0, 50'000, {cuda_kernel_cost("scale", 40.0, std::nullopt)})};
  report.cuda_build = run;
  report.cuda_compile_cpu_ms[86] = *summarize({6370.0});
  return report;
}

CommandEntry cuda_entry(Settings budgets, std::vector<int> archs = {86}) {
  CommandEntry entry;
  entry.name = "app";
  budgets.cuda_arch = archs;
  entry.cuda_archs = std::move(archs);
  entry.budgets = std::move(budgets);
  return entry;
}

Settings every_cuda_budget(double compile_s, double module_s, double kernel_ms, std::uint64_t bytes) {
  Settings budgets;
  budgets.max_cuda_compile_seconds = compile_s;
  budgets.max_module_cuda_compile_seconds = module_s;
  budgets.max_kernel_cuda_compile_ms = kernel_ms;
  budgets.max_cuda_output_bytes = bytes;
  return budgets;
}

BudgetOutcome cuda_outcome(const CommandResult& result, const std::string& budget) {
  const auto it =
      std::find_if(result.outcomes.begin(), result.outcomes.end(), [&](const auto& o) { return o.budget == budget; });
  if (it == result.outcomes.end()) throw std::runtime_error("no outcome " + budget);
  return *it;
}

constexpr const char* kCudaKeys[] = {"max_cuda_compile_seconds", "max_module_cuda_compile_seconds",
                                     "max_kernel_cuda_compile_ms", "max_cuda_output_bytes"};

TEST(CudaBudgetParse, ArchAndKeysReachTheEntry) {
  const auto file = parse_cuda(
      "defaults:\n  cuda_arch: sm_86\n  max_cuda_output_bytes: 400000\n"
      "commands:\n"
      "  - name: one\n    command: [x]\n    max_kernel_cuda_compile_ms: 1000\n"
      "  - name: two\n    command: [x]\n    cuda_arch: [sm_90, \"86\"]\n    max_cuda_compile_seconds: 5\n"
      "    max_module_cuda_compile_seconds: 2.5\n");
  ASSERT_EQ(file.commands.size(), 2u);
  const auto& one = file.commands[0];
  EXPECT_EQ(one.cuda_archs, std::vector<int>{86});
  EXPECT_EQ(one.budgets.max_kernel_cuda_compile_ms, 1000.0);
  EXPECT_EQ(one.budgets.max_cuda_output_bytes, 400'000u);
  EXPECT_FALSE(one.budgets.max_cuda_compile_seconds.has_value());
  const auto& two = file.commands[1];
  EXPECT_EQ(two.cuda_archs, (std::vector<int>{90, 86}));  // the entry's list replaces the defaults'
  EXPECT_EQ(two.budgets.max_cuda_compile_seconds, 5.0);
  EXPECT_EQ(two.budgets.max_module_cuda_compile_seconds, 2.5);
  EXPECT_EQ(two.budgets.max_cuda_output_bytes, 400'000u);
  // An entry without cuda_arch builds nothing for CUDA.
  EXPECT_TRUE(parse_cuda(kCudaEntry).commands.front().cuda_archs.empty());
}

TEST(CudaBudgetParse, BadArchIsAnErrorOnItsLine) {
  EXPECT_NE(
      cuda_error_of(kCudaEntry + "    cuda_arch: ampere\n")
          .find("/project/budget.yaml:4: 'cuda_arch' must be an architecture such as sm_86 (or 86), got 'ampere'"),
      std::string::npos);
  // In a list, the line of the bad item.
  EXPECT_NE(cuda_error_of(kCudaEntry + "    cuda_arch:\n      - sm_86\n      - sm_8x\n")
                .find("/project/budget.yaml:6: 'cuda_arch' must be an architecture such as sm_86 (or 86), got 'sm_8x'"),
            std::string::npos);
  EXPECT_NE(
      cuda_error_of(kCudaEntry + "    cuda_arch: [sm_86, 86]\n").find("budget.yaml:4: 'cuda_arch' names sm_86 twice"),
      std::string::npos);
  EXPECT_NE(cuda_error_of(kCudaEntry + "    cuda_arch: []\n").find("budget.yaml:4: 'cuda_arch' is empty"),
            std::string::npos);
  EXPECT_NE(cuda_error_of(kCudaEntry + "    cuda_arch: {sm: 86}\n").find("budget.yaml:4: 'cuda_arch' must be"),
            std::string::npos);
  EXPECT_NE(cuda_error_of(kCudaEntry + "    cuda_arch: sm_86\n    max_kernel_cuda_compile_ms: -1\n")
                .find("budget.yaml:5: 'max_kernel_cuda_compile_ms' must be a number >= 0"),
            std::string::npos);
}

TEST(CudaBudgetParse, ABudgetWithoutCudaArchIsAnErrorOnItsLine) {
  for (const std::string key : kCudaKeys) {
    const auto message = cuda_error_of(kCudaEntry + "    " + key + ": 5\n");
    EXPECT_NE(message.find("/project/budget.yaml:4: command 'a': '" + key + "' needs 'cuda_arch'"), std::string::npos)
        << message;
  }
  // Set in defaults for an entry without cuda_arch: the defaults' line.
  EXPECT_NE(cuda_error_of("defaults:\n  max_cuda_output_bytes: 5\n" + kCudaEntry)
                .find("budget.yaml:2: command 'a': 'max_cuda_output_bytes' needs 'cuda_arch'"),
            std::string::npos);
  // cuda_arch from the defaults is enough.
  EXPECT_EQ(cuda_error_of("defaults:\n  cuda_arch: 86\n" + kCudaEntry + "    max_cuda_output_bytes: 5\n"),
            "(no error)");
}

TEST(CudaBudgetEvaluate, PassesUnderEveryLimitWithTheMeasuredValues) {
  const auto result = evaluate(cuda_entry(every_cuda_budget(7.0, 7.0, 6000.0, 370'000)), cuda_report(), std::nullopt);
  EXPECT_FALSE(result.failed());
  for (const std::string key : kCudaKeys) EXPECT_EQ(cuda_outcome(result, key).verdict, Verdict::pass) << key;
  EXPECT_DOUBLE_EQ(*cuda_outcome(result, "max_cuda_compile_seconds").measured, 6.37);  // the summary's median
  EXPECT_DOUBLE_EQ(*cuda_outcome(result, "max_module_cuda_compile_seconds").measured, 6.44);
  EXPECT_DOUBLE_EQ(*cuda_outcome(result, "max_kernel_cuda_compile_ms").measured, 5.688);  // seconds, like every timing
  EXPECT_DOUBLE_EQ(*cuda_outcome(result, "max_kernel_cuda_compile_ms").limit, 6.0);
  EXPECT_DOUBLE_EQ(*cuda_outcome(result, "max_cuda_output_bytes").measured, 370'000.0);
  // Exact: one byte less fails.
  const auto tight = evaluate(cuda_entry(every_cuda_budget(7.0, 7.0, 6000.0, 369'999)), cuda_report(), std::nullopt);
  EXPECT_EQ(cuda_outcome(tight, "max_cuda_output_bytes").verdict, Verdict::fail);
  EXPECT_EQ(cuda_outcome(tight, "max_cuda_output_bytes").offenders.front().module, "__main__");
}

TEST(CudaBudgetEvaluate, CompileSecondsFailureNamesArchModuleAndCostliestKernel) {
  Settings budgets;
  budgets.max_cuda_compile_seconds = 5.0;
  const auto result = evaluate(cuda_entry(budgets), cuda_report(), std::nullopt);
  const auto outcome = cuda_outcome(result, "max_cuda_compile_seconds");
  EXPECT_EQ(outcome.verdict, Verdict::fail);
  EXPECT_DOUBLE_EQ(*outcome.measured, 6.37);
  ASSERT_FALSE(outcome.offenders.empty());
  const auto& worst = outcome.offenders.front();
  EXPECT_EQ(worst.module, "__main__");
  for (const std::string part :
       {"sm_86 6.37 s > 5 s", "929589f", "6.44 s", "kernel heavy: backward 4871 ms + forward 817 ms"})
    EXPECT_NE(worst.detail.find(part), std::string::npos) << part << " not in: " << worst.detail;
  EXPECT_NE(outcome.note.find("sm_86 6.37 s"), std::string::npos) << outcome.note;
}

TEST(CudaBudgetEvaluate, ModuleAndKernelCeilingsNameEachOffenderOnly) {
  Settings budgets;
  budgets.max_module_cuda_compile_seconds = 1.0;
  budgets.max_kernel_cuda_compile_ms = 1000.0;
  const auto result = evaluate(cuda_entry(budgets), cuda_report(), std::nullopt);
  const auto module = cuda_outcome(result, "max_module_cuda_compile_seconds");
  EXPECT_EQ(module.verdict, Verdict::fail);
  ASSERT_EQ(module.offenders.size(), 1u);  // helpers' 0.3 s is under the limit
  EXPECT_EQ(module.offenders[0].module, "__main__");
  EXPECT_NE(module.offenders[0].detail.find("sm_86, hash 929589f, block_dim 256: 6.44 s CPU > 1 s"), std::string::npos)
      << module.offenders[0].detail;
  EXPECT_NE(module.offenders[0].detail.find("kernel heavy"), std::string::npos);

  const auto kernel = cuda_outcome(result, "max_kernel_cuda_compile_ms");
  EXPECT_EQ(kernel.verdict, Verdict::fail);
  EXPECT_DOUBLE_EQ(*kernel.measured, 5.688);
  ASSERT_EQ(kernel.offenders.size(), 1u);  // light (31 ms) and scale (40 ms) are under it
  EXPECT_EQ(kernel.offenders[0].module, "__main__");
  EXPECT_NE(kernel.offenders[0].detail.find(
                "kernel heavy (sm_86, hash 929589f): backward 4871 ms + forward 817 ms = 5688 ms > 1000 ms"),
            std::string::npos)
      << kernel.offenders[0].detail;

  // A lower module limit names both, costliest first.
  budgets.max_module_cuda_compile_seconds = 0.1;
  const auto both =
      cuda_outcome(evaluate(cuda_entry(budgets), cuda_report(), std::nullopt), "max_module_cuda_compile_seconds");
  ASSERT_EQ(both.offenders.size(), 2u);
  EXPECT_EQ(both.offenders[0].module, "__main__");
  EXPECT_EQ(both.offenders[1].module, "helpers");
}

// Missing is not zero: the project's unmeasured ceiling fails, says "unavailable" and why, and
// shows no value.
void expect_cuda_unavailable(const CommandResult& result, const std::string& reason) {
  for (const std::string key : kCudaKeys) {
    const auto outcome = cuda_outcome(result, key);
    EXPECT_EQ(outcome.verdict, Verdict::fail) << key;
    EXPECT_FALSE(outcome.measured.has_value()) << key;
    EXPECT_NE(outcome.note.find("unavailable: "), std::string::npos) << key << ": " << outcome.note;
    EXPECT_NE(outcome.note.find("cannot pass"), std::string::npos) << key << ": " << outcome.note;
    EXPECT_NE(outcome.note.find(reason), std::string::npos) << key << ": " << outcome.note;
  }
}

TEST(CudaBudgetEvaluate, NoCudaBuildOrAnUnavailableOneCannotPass) {
  const auto limits = every_cuda_budget(1e6, 1e6, 1e9, 1'000'000'000);
  Report without = cuda_report();
  without.cuda_build.reset();
  without.cuda_compile_cpu_ms.clear();
  expect_cuda_unavailable(evaluate(cuda_entry(limits), without, std::nullopt), "the run has no CUDA build");

  Report unavailable = cuda_report();
  unavailable.cuda_build->unavailable = "warp has no compile_aot_module (Warp 1.5)";
  unavailable.cuda_build->modules.clear();
  unavailable.cuda_compile_cpu_ms.clear();
  expect_cuda_unavailable(evaluate(cuda_entry(limits), unavailable, std::nullopt),
                          "the CUDA build was unavailable: warp has no compile_aot_module (Warp 1.5)");
}

TEST(CudaBudgetEvaluate, AnArchNotBuiltOrNotTimedCannotPass) {
  const auto limits = every_cuda_budget(1e6, 1e6, 1e9, 1'000'000'000);
  // sm_90 asked, only sm_86 in the report: every budget is missing sm_90.
  expect_cuda_unavailable(evaluate(cuda_entry(limits, {86, 90}), cuda_report(), std::nullopt),
                          "sm_90 was not built in this run (built: sm_86)");
  // Built, but no sample's CPU summary for the arch.
  Report untimed = cuda_report();
  untimed.cuda_compile_cpu_ms.clear();
  Settings budgets;
  budgets.max_cuda_compile_seconds = 1e6;
  const auto outcome = cuda_outcome(evaluate(cuda_entry(budgets), untimed, std::nullopt), "max_cuda_compile_seconds");
  EXPECT_EQ(outcome.verdict, Verdict::fail);
  EXPECT_FALSE(outcome.measured.has_value());
  EXPECT_NE(outcome.note.find("no CUDA build for sm_86 was timed"), std::string::npos) << outcome.note;
  // No kernel costs in a module's trace: the kernel ceiling cannot pass.
  Report no_trace = cuda_report();
  no_trace.cuda_build->modules[1].kernels.clear();
  no_trace.cuda_build->modules[1].trace_unavailable = "NVRTC wrote no trace";
  budgets = {};
  budgets.max_kernel_cuda_compile_ms = 1e9;
  const auto kernel = cuda_outcome(evaluate(cuda_entry(budgets), no_trace, std::nullopt), "max_kernel_cuda_compile_ms");
  EXPECT_EQ(kernel.verdict, Verdict::fail);
  EXPECT_NE(kernel.note.find("sm_86 helpers abc1234 has no kernel costs: NVRTC wrote no trace"), std::string::npos)
      << kernel.note;
}

TEST(CudaBudgetEvaluate, AFailedBuildFailsWithItsErrorNamed) {
  Report report = cuda_report();
  auto& helpers = report.cuda_build->modules[1];
  helpers.error = "NVRTC error: identifier \"undefined_fn\" is undefined\nat line 1234";
  helpers.cpu_ms.reset();
  helpers.output_bytes.reset();
  helpers.kernels.clear();
  report.cuda_compile_cpu_ms[86] = *summarize({6100.0});  // the builds that succeeded
  const auto result = evaluate(cuda_entry(every_cuda_budget(1e6, 1e6, 1e9, 1'000'000'000)), report, std::nullopt);
  EXPECT_TRUE(result.failed());
  for (const std::string key : kCudaKeys) {
    const auto outcome = cuda_outcome(result, key);
    EXPECT_EQ(outcome.verdict, Verdict::fail) << key;
    EXPECT_FALSE(outcome.measured.has_value()) << key << ": a sum without the failed build is no measurement";
    EXPECT_NE(outcome.note.find("1 CUDA build(s) failed"), std::string::npos) << key << ": " << outcome.note;
    ASSERT_FALSE(outcome.offenders.empty()) << key;
    EXPECT_EQ(outcome.offenders.front().module, "helpers") << key;
    EXPECT_NE(outcome.offenders.front().detail.find(
                  "sm_86, hash abc1234: the CUDA build failed: NVRTC error: identifier \"undefined_fn\" is undefined"),
              std::string::npos)
        << outcome.offenders.front().detail;
    EXPECT_EQ(outcome.offenders.front().detail.find("line 1234"), std::string::npos);  // one line
  }
}

TEST(CudaBudgetEvaluate, BudgetsReadFromTheFirstRunAreDecidedAfterIt) {
  Settings budgets;
  budgets.max_module_cuda_compile_seconds = 6.5;  // within 1 % of the limit, decided all the same
  budgets.max_kernel_cuda_compile_ms = 5700.0;
  budgets.max_cuda_output_bytes = 1'000'000;
  const CommandEntry entry = cuda_entry(budgets);
  const Report report = cuda_report();
  CommandResult result = evaluate(entry, report, std::nullopt);
  EXPECT_TRUE(assess_sampling(result, entry, report, std::nullopt));
  EXPECT_NE(cuda_outcome(result, "max_module_cuda_compile_seconds").decided_by.find("first run's CUDA build"),
            std::string::npos);
  EXPECT_NE(cuda_outcome(result, "max_kernel_cuda_compile_ms").decided_by.find("first run's CUDA build"),
            std::string::npos);
  EXPECT_EQ(cuda_outcome(result, "max_cuda_output_bytes").decided_by, "exact after one run");
}

}  // namespace
}  // namespace wcp::budget
