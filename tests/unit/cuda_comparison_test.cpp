// The CUDA build in a comparison (issue 64): per arch both sides measured, its CPU time judged
// against its own noise, the output bytes and the kernel that moved most; a regression of the CUDA
// build alone is a REGRESSION (rule cuda_regressed) that names that kernel.
#include <gtest/gtest.h>

#include "report_fixtures.h"
#include "verdict/cuda_comparison.h"
#include "verdict/judge.h"

namespace wcp::verdict {
namespace {

using testing::clean_report;

CudaModuleBuild heavy_module(double heavy_backward_ms, long long bytes) {
  CudaModuleBuild build;
  build.module = "__main__";
  build.hash = "929589f";
  build.arch = 86;
  build.block_dim = 256;
  build.output_kind = "cubin";
  build.cpu_ms = heavy_backward_ms + 1500.0;
  build.output_bytes = bytes;
  CudaKernelCost heavy;
  heavy.kernel = "heavy";
  heavy.mangled = "heavy_63716231";
  heavy.forward_optimizer_ms = 573.0;
  heavy.backward_optimizer_ms = heavy_backward_ms;
  CudaKernelCost light;
  light.kernel = "light";
  light.mangled = "light_67229f32";
  light.forward_optimizer_ms = 12.0;
  build.kernels = {heavy, light};
  return build;
}

// The clean report (the same CPU build on both sides) with a CUDA build for sm_86 whose CPU time
// over three samples is `cuda_ms`.
Report with_cuda(std::vector<double> cuda_ms, double heavy_backward_ms, long long bytes) {
  Report report = clean_report(1000);
  CudaBuildRun run;
  run.archs = {86};
  run.workers = 1;
  run.modules = {heavy_module(heavy_backward_ms, bytes)};
  report.cuda_build = run;
  report.cuda_compile_cpu_ms[86] = *summarize(cuda_ms);
  return report;
}

TEST(CudaComparison, ACudaBuildThatRegressedAloneIsARegressionNamingTheKernel) {
  const Report baseline = with_cuda({6300, 6350, 6400}, 3900, 320000);
  const Report candidate = with_cuda({8300, 8350, 8400}, 5900, 380000);
  const Judgement judgement = judge(baseline, candidate);
  EXPECT_EQ(judgement.verdict, Verdict::regression) << judgement.reason;
  EXPECT_EQ(judgement.rule, Rule::cuda_regressed);
  EXPECT_NE(judgement.reason.find("sm_86 regressed"), std::string::npos) << judgement.reason;
  EXPECT_NE(judgement.reason.find("heavy (__main__)"), std::string::npos) << judgement.reason;
  ASSERT_EQ(judgement.cuda.size(), 1U);
  EXPECT_EQ(judgement.cuda[0].cpu.direction, Direction::regressed);
  EXPECT_EQ(judgement.cuda[0].build.baseline_bytes, 320000);
  EXPECT_EQ(judgement.cuda[0].build.candidate_bytes, 380000);
  ASSERT_TRUE(judgement.cuda[0].build.moved_most);
  EXPECT_EQ(judgement.cuda[0].build.moved_most->kernel, "heavy");
  EXPECT_DOUBLE_EQ(judgement.cuda[0].build.moved_most->delta_ms(), 2000.0);
}

TEST(CudaComparison, ACudaBuildWithinItsNoiseDecidesNothing) {
  const Report baseline = with_cuda({6300, 6350, 6400}, 3900, 320000);
  const Report candidate = with_cuda({6320, 6360, 6390}, 3910, 320000);
  const Judgement judgement = judge(baseline, candidate);
  EXPECT_NE(judgement.rule, Rule::cuda_regressed) << judgement.reason;
  ASSERT_EQ(judgement.cuda.size(), 1U);
  EXPECT_EQ(judgement.cuda[0].cpu.direction, Direction::within_band);
}

TEST(CudaComparison, OneSideWithoutACudaBuildComparesNothing) {
  const Report baseline = with_cuda({6300, 6350, 6400}, 3900, 320000);
  Report candidate = clean_report(1000);  // never asked for --cuda-arch: unmeasured, not 0
  const Judgement judgement = judge(baseline, candidate);
  EXPECT_TRUE(judgement.cuda.empty());
  EXPECT_NE(judgement.rule, Rule::cuda_regressed);
}

TEST(CudaComparison, AKernelThatAppearedIsTheMoveWhenItIsTheLargest) {
  Report baseline = with_cuda({1000, 1000, 1000}, 100, 1000);
  Report candidate = with_cuda({1000, 1000, 1000}, 100, 1000);
  CudaKernelCost added;
  added.kernel = "added";
  added.forward_optimizer_ms = 700.0;
  candidate.cuda_build->modules[0].kernels.push_back(added);
  const auto comparisons = compare_cuda_builds(baseline, candidate);
  ASSERT_EQ(comparisons.size(), 1U);
  ASSERT_TRUE(comparisons[0].moved_most);
  EXPECT_EQ(comparisons[0].moved_most->kernel, "added");
  EXPECT_FALSE(comparisons[0].moved_most->baseline_ms);
  EXPECT_EQ(kernel_move_text(*comparisons[0].moved_most), "added (__main__) none → 700 ms (+700 ms)");
}

}  // namespace
}  // namespace wcp::verdict
