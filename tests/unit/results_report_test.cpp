// The results report's mechanism sections (results/results_report.h): what a change fixed,
// what remains, what was ruled out, each mechanism in one section only.
#include "results/results_report.h"

#include <algorithm>

#include <gtest/gtest.h>

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
