// The results report's mechanism sections (results/results_report.h): what a change fixed,
// what remains, what was ruled out, each mechanism in one section only.
#include "results/results_report.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "render/results_markdown.h"

namespace wcp::results {
namespace {

using analysis::Diagnosis;
using analysis::Finding;
using analysis::RuledOut;

Finding finding_of(Mechanism mechanism, const std::string& evidence) {
  Finding finding;
  finding.mechanism = mechanism;
  finding.evidence = {evidence};
  return finding;
}

bool listed(const std::vector<MechanismLine>& lines, Mechanism mechanism) {
  return std::any_of(lines.begin(), lines.end(), [mechanism](const auto& line) { return line.mechanism == mechanism; });
}

TEST(ResultsReportMechanisms, AFixedMechanismIsListedAsFixedNotAlsoAsRuledOut) {
  Diagnosis before;
  before.findings.push_back(finding_of(Mechanism::closure_churn, "module __main__ on cpu: 4 builds with 4 hashes"));
  before.findings.push_back(finding_of(Mechanism::unique_modules, "module k_0123abcd"));
  Diagnosis after;
  after.findings.push_back(finding_of(Mechanism::unique_modules, "module k_0123abcd"));
  after.ruled_out.push_back(RuledOut{Mechanism::closure_churn, "every module was built with a single hash"});
  after.ruled_out.push_back(RuledOut{Mechanism::late_kernel, "every module was built with a single hash"});

  const ResultsReport results = build_results_report(Report{}, Report{}, verdict::Judgement{}, before, after, Ledger{});

  EXPECT_TRUE(listed(results.fixed, Mechanism::closure_churn));
  EXPECT_FALSE(listed(results.ruled_out, Mechanism::closure_churn));
  EXPECT_TRUE(listed(results.ruled_out, Mechanism::late_kernel));
  EXPECT_TRUE(listed(results.remaining, Mechanism::unique_modules));
  EXPECT_FALSE(listed(results.fixed, Mechanism::unique_modules));
}

}  // namespace
}  // namespace wcp::results

namespace wcp::results {
namespace {

// The candidate's CUDA build (`--cuda-arch`) as the reviewer's document shows it: per arch its
// CPU time, then the costliest kernels, forward and backward apart.
TEST(ResultsReportCuda, TheCandidatesCudaBuildIsRankedInTheDocument) {
  Report candidate;
  CudaModuleBuild build;
  build.module = "__main__";
  build.hash = "929589f";
  build.arch = 86;
  build.cpu_ms = 6400.0;
  CudaKernelCost light;
  light.kernel = "light";
  light.forward_optimizer_ms = 12.0;
  CudaKernelCost heavy;
  heavy.kernel = "heavy";
  heavy.forward_optimizer_ms = 573.0;
  heavy.backward_optimizer_ms = 3917.0;
  build.kernels = {light, heavy};  // unranked on purpose: the ranking is the report's
  candidate.cuda_build = CudaBuildRun{{86}, "", 1, 6500.0, {build}};
  candidate.cuda_compile_cpu_ms[86] = *summarize({6400.0});

  const ResultsReport results = build_results_report(Report{}, candidate, verdict::Judgement{}, analysis::Diagnosis{},
                                                     analysis::Diagnosis{}, Ledger{});
  ASSERT_TRUE(results.cuda_after);
  const std::string markdown = render::render_results_markdown(results);
  const auto section = markdown.find("## CUDA build after the change");
  ASSERT_NE(section, std::string::npos) << markdown;
  EXPECT_NE(markdown.find("sm_86: 1 module(s) built, 6400 ms of CPU (median)", section), std::string::npos) << markdown;
  const auto heavy_row = markdown.find("| `heavy` | `__main__` | 573.0 | 3917.0 | 4490 |", section);
  const auto light_row = markdown.find("| `light` |", section);
  ASSERT_NE(heavy_row, std::string::npos) << markdown;
  ASSERT_NE(light_row, std::string::npos) << markdown;
  EXPECT_LT(heavy_row, light_row) << "costliest first";

  // A baseline-only CUDA build leaves the candidate's section out: nothing measured after.
  EXPECT_FALSE(build_results_report(candidate, Report{}, verdict::Judgement{}, analysis::Diagnosis{},
                                    analysis::Diagnosis{}, Ledger{})
                   .cuda_after);
}

}  // namespace
}  // namespace wcp::results
