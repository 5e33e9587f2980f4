// How far a run establishes a finding's cause (issue 50): a group reads as its least established
// member, and the JSON carries both.
#include <gtest/gtest.h>

#include "analysis/finding.h"
#include "analysis/finding_groups.h"
#include "render/diagnosis_json.h"

namespace wcp::analysis {
namespace {

Finding backward_finding(const std::string& module, CauseStatus cause) {
  Finding finding;
  finding.mechanism = Mechanism::unused_backward;
  finding.module = module;
  finding.fix = "Set wp.config.enable_backward = False before app.py:10.";
  finding.short_fix = finding.fix;
  finding.headline = module + ": backward code generated, never launched adjoint";
  finding.cause = cause;
  return finding;
}

TEST(CauseStatus, AGroupIsAsEstablishedAsItsLeastEstablishedMember) {
  Diagnosis diagnosis;
  diagnosis.findings = {backward_finding("physics_module", CauseStatus::confirmed), backward_finding("render_module", CauseStatus::inferred)};
  diagnosis.finding_groups = group_findings(diagnosis.findings);
  ASSERT_EQ(diagnosis.finding_groups.size(), 1u);
  EXPECT_EQ(diagnosis.finding_groups[0].cause, CauseStatus::inferred);
  diagnosis.findings.push_back(backward_finding("export_module", CauseStatus::cannot_tell));
  EXPECT_EQ(group_findings(diagnosis.findings)[0].cause, CauseStatus::cannot_tell);

  const auto json = render::diagnosis_to_json(diagnosis);
  EXPECT_EQ(json.at("findings")[0].at("cause"), "confirmed");
  EXPECT_EQ(json.at("findings")[1].at("cause"), "inferred");
  EXPECT_EQ(json.at("finding_groups")[0].at("cause"), "inferred");
  EXPECT_EQ(to_string(CauseStatus::cannot_tell), "this run cannot tell");
}

}  // namespace
}  // namespace wcp::analysis
