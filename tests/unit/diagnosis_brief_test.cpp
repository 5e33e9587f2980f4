// The diagnosis as a person reads it on one screen (render/diagnosis_brief_text.h, and the
// `diagnose` summary of render/diagnosis_text.h): a group's template with its blanks ("<N>",
// "<module>") never reaches the text; each group shows the fix that holds for all its members or
// each member's own; every line fits the screen and no name, number or path is cut.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "analysis/finding_groups.h"
#include "analysis/user_action_plan.h"
#include "render/diagnosis_brief_text.h"
#include "render/diagnosis_text.h"
#include "render/finding_text.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

analysis::Finding unused_backward(const std::string& module, const std::string& file, int line) {
  analysis::Finding finding;
  finding.mechanism = Mechanism::unused_backward;
  finding.module = module;
  finding.owner = ModuleOwnership{};
  finding.trigger = "the generated source of " + module + " has backward code and no adjoint launch";
  finding.headline = module + ": backward code generated, never launched adjoint";
  const std::string site = file + ":" + std::to_string(line);
  finding.fix = "Set wp.config.enable_backward = False before " + site + ", where module " + module +
                "'s first kernel is defined (in the entry point, before the import that runs that line).";
  finding.short_fix = "Set wp.config.enable_backward = False before " + site + ".";
  return finding;
}

analysis::Diagnosis diagnosis_of(std::vector<analysis::Finding> findings) {
  analysis::Diagnosis diagnosis;
  diagnosis.bottleneck = "Compilation takes 2383 ms of the 3004 ms cold run (79%).";
  diagnosis.findings = std::move(findings);
  diagnosis.finding_groups = analysis::group_findings(diagnosis.findings);
  diagnosis.actions = analysis::plan_user_actions(Report{}, diagnosis);
  return diagnosis;
}

std::string brief(const analysis::Diagnosis& diagnosis) {
  std::ostringstream out;
  render_diagnosis_brief_text(diagnosis, "up.json", out);
  return out.str();
}

std::string summary(const analysis::Diagnosis& diagnosis) {
  std::ostringstream out;
  render_diagnosis_summary_text(diagnosis, out);
  return out.str();
}

// The text with its line breaks and indents as single spaces: what a wrapped sentence says.
std::string flattened(const std::string& text) {
  std::string out;
  std::istringstream words(text);
  for (std::string word; words >> word;) out += (out.empty() ? "" : " ") + word;
  return out;
}

void expect_fits_the_screen(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(columns(line), kScreenColumns) << line;
}

void expect_no_placeholder(const std::string& text) {
  for (const char* placeholder : {"<N>", "<module>", "<file>"}) EXPECT_THAT(text, Not(HasSubstr(placeholder)));
}

TEST(DiagnosisBrief, MembersDifferingInALineShowOneFixListingEachLine) {
  const auto diagnosis = diagnosis_of({unused_backward("make_a__locals__a_1f2e3d4c", "pipeline/stages.py", 10),
                                       unused_backward("make_b__locals__b_99aa00bb", "pipeline/stages.py", 30),
                                       unused_backward("make_c__locals__c_5e6f7a8b", "pipeline/stages.py", 21)});
  ASSERT_EQ(diagnosis.finding_groups.size(), 1U);
  ASSERT_THAT(diagnosis.finding_groups[0].fix, HasSubstr("<N>"));  // the JSON keeps its template
  for (const std::string& text : {brief(diagnosis), summary(diagnosis)}) {
    expect_no_placeholder(text);
    expect_fits_the_screen(text);
    EXPECT_THAT(flattened(text),
                HasSubstr("fix: Set wp.config.enable_backward = False before pipeline/stages.py:10, 30 and 21."));
  }
  // The brief names each member's fact (its module).
  for (const auto& finding : diagnosis.findings) EXPECT_THAT(brief(diagnosis), HasSubstr(finding.headline));
}

TEST(DiagnosisBrief, MembersWithNoFixInCommonShowEachMembersOwn) {
  auto a = unused_backward("make_a__locals__a_1f2e3d4c", "pipeline/stages.py", 10);
  auto b = unused_backward("make_b__locals__b_99aa00bb", "pipeline/stages.py", 30);
  // Two numbers that differ: no one fix holds for both.
  a.short_fix = "Set it before pipeline/stages.py:10 and pipeline/setup.py:4.";
  b.short_fix = "Set it before pipeline/stages.py:30 and pipeline/setup.py:7.";
  const auto diagnosis = diagnosis_of({a, b});
  ASSERT_EQ(diagnosis.finding_groups.size(), 1U);
  ASSERT_EQ(render::finding_group_text(diagnosis.finding_groups[0], diagnosis.findings).short_fix, "");
  for (const std::string& text : {brief(diagnosis), summary(diagnosis)}) {
    expect_no_placeholder(text);
    expect_fits_the_screen(text);
    EXPECT_THAT(flattened(text), HasSubstr(a.short_fix));
    EXPECT_THAT(flattened(text), HasSubstr(b.short_fix));
  }
}

TEST(DiagnosisBrief, AGroupOfManyShowsAFewMembersAndCountsTheRest) {
  std::vector<analysis::Finding> findings;
  for (int line : {10, 20, 30, 40, 50}) {
    findings.push_back(unused_backward("make_" + std::to_string(line) + "__locals__k_1f2e3d4c", "stages.py", line));
  }
  const std::string text = brief(diagnosis_of(findings));
  EXPECT_THAT(text, HasSubstr(findings[0].headline));
  EXPECT_THAT(text, Not(HasSubstr(findings[4].headline)));
  EXPECT_THAT(text, HasSubstr("and 3 more"));
  EXPECT_THAT(flattened(text), HasSubstr("before stages.py:10, 20, 30, 40 and 50."));
}

TEST(DiagnosisBrief, APathLongerThanTheRoomLeftStartsTheNextLineWhole) {
  auto finding = unused_backward("make_a__locals__a_1f2e3d4c", "pipeline/stages.py", 10);
  const std::string path = "src/very/deeply/nested/package/of/the/application/kernels/stages_of_the_pipeline.py:144";
  finding.headline = "option changed after load: fast_math False -> True at " + path;
  finding.short_fix = "Move the write at " + path + " before the first launch.";
  const std::string text = brief(diagnosis_of({finding}));
  expect_fits_the_screen(text);
  EXPECT_THAT(text, Not(HasSubstr("…")));
  std::istringstream lines(text);
  int lines_with_the_path = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(path) != std::string::npos) ++lines_with_the_path;
  }
  EXPECT_EQ(lines_with_the_path, 2);  // the headline's and the fix's, each whole on one line
  EXPECT_THAT(flattened(text), HasSubstr(flattened(finding.headline)));
  EXPECT_THAT(flattened(text), HasSubstr("fix: " + finding.short_fix));
}

}  // namespace
}  // namespace wcp::render
