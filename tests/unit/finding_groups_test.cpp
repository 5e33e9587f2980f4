// Finding groups (analysis/finding_groups.h): findings of one mechanism and owner whose fixes
// differ only in the module and a line number are one group, listing each module and its cost.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "analysis/finding_groups.h"

namespace wcp::analysis {
namespace {

using ::testing::ElementsAre;

Finding unused_backward(const std::string& module, int line, std::optional<double> cost = std::nullopt) {
  Finding finding;
  finding.mechanism = Mechanism::unused_backward;
  finding.module = module;
  finding.fix = "Set wp.config.enable_backward = False before pipeline/stages.py:" + std::to_string(line) +
                ", where module " + module + "'s first kernel is defined. Or set it on " + module + ".";
  finding.cost_ms = cost;
  finding.cost_basis = "not computable from one run";
  finding.owner = ModuleOwnership{};
  return finding;
}

TEST(FindingGroups, FixesThatDifferOnlyInModuleAndLineAreOneGroup) {
  const auto groups = group_findings(
      {unused_backward("make_a__locals__a_1f2e3d4c", 12), unused_backward("make_b__locals__b_99aa00bb", 27)});
  ASSERT_EQ(groups.size(), 1U);
  const FindingGroup& group = groups.front();
  EXPECT_EQ(group.mechanism, Mechanism::unused_backward);
  EXPECT_EQ(group.fix,
            "Set wp.config.enable_backward = False before pipeline/stages.py:<N>, where module <module>'s first "
            "kernel is defined. Or set it on <module>.");
  ASSERT_EQ(group.members.size(), 2U);
  EXPECT_EQ(group.members[0].module, "make_a__locals__a_1f2e3d4c");
  EXPECT_EQ(group.members[0].finding, 0U);
  EXPECT_THAT(group.members[0].fix_values, ElementsAre("12"));
  EXPECT_EQ(group.members[1].finding, 1U);
  EXPECT_THAT(group.members[1].fix_values, ElementsAre("27"));
  EXPECT_FALSE(group.total_cost_ms);
  EXPECT_EQ(group.costs_unknown, 2U);
  EXPECT_EQ(group.cost_basis, "not computable from one run");
}

TEST(FindingGroups, IdenticalFixesKeepTheirTextVerbatim) {
  Finding a = unused_backward("mod_a", 5, 10.0);
  Finding b = unused_backward("mod_b", 5, 30.0);
  a.fix = b.fix = "Set wp.config.enable_backward = False right after import warp (line 3).";
  b.cost_estimated = true;
  const auto groups = group_findings({a, b});
  ASSERT_EQ(groups.size(), 1U);
  EXPECT_EQ(groups[0].fix, a.fix);
  EXPECT_TRUE(groups[0].members[0].fix_values.empty());
  ASSERT_TRUE(groups[0].total_cost_ms);
  EXPECT_DOUBLE_EQ(*groups[0].total_cost_ms, 40.0);
  EXPECT_EQ(groups[0].costs_unknown, 0U);
  EXPECT_TRUE(groups[0].cost_estimated);
  EXPECT_FALSE(groups[0].members[0].cost_estimated);
  EXPECT_TRUE(groups[0].members[1].cost_estimated);
}

TEST(FindingGroups, AKnownAndAnUnknownCostAreSaidApart) {
  const auto groups = group_findings({unused_backward("mod_a", 5, 25.0), unused_backward("mod_b", 5)});
  ASSERT_EQ(groups.size(), 1U);
  ASSERT_TRUE(groups[0].total_cost_ms);
  EXPECT_DOUBLE_EQ(*groups[0].total_cost_ms, 25.0);
  EXPECT_EQ(groups[0].costs_unknown, 1U);
  EXPECT_FALSE(groups[0].cost_estimated);
}

TEST(FindingGroups, AnotherMechanismOwnerOrFixIsAnotherGroup) {
  Finding other_mechanism = unused_backward("mod_b", 12);
  other_mechanism.mechanism = Mechanism::unique_modules;
  Finding other_owner = unused_backward("mod_c", 12);
  other_owner.owner->owner = Owner::dependency;
  Finding other_file = unused_backward("mod_d", 12);
  other_file.fix = "Set wp.config.enable_backward = False before pipeline/plugins.py:12.";
  Finding whole_program = unused_backward("mod_e", 12);
  whole_program.owner.reset();
  const auto groups =
      group_findings({unused_backward("mod_a", 12), other_mechanism, other_owner, other_file, whole_program});
  ASSERT_EQ(groups.size(), 5U);
  for (std::size_t index = 0; index < groups.size(); ++index) {
    ASSERT_EQ(groups[index].members.size(), 1U);
    EXPECT_EQ(groups[index].members[0].finding, index);  // in the order of their first member
  }
  EXPECT_FALSE(groups[2].yours());
  EXPECT_TRUE(groups[4].yours());
  // A single member's fix is its own, with no placeholders.
  EXPECT_EQ(groups[0].fix, unused_backward("mod_a", 12).fix);
}

TEST(FindingGroups, MembersOfOneGroupNeedNotBeAdjacent) {
  Finding middle = unused_backward("mod_b", 3);
  middle.mechanism = Mechanism::unique_modules;
  const auto groups = group_findings({unused_backward("mod_a", 3), middle, unused_backward("mod_c", 9)});
  ASSERT_EQ(groups.size(), 2U);
  ASSERT_EQ(groups[0].members.size(), 2U);
  EXPECT_EQ(groups[0].members[1].finding, 2U);
  EXPECT_EQ(groups[0].members[1].module, "mod_c");
}

TEST(FindingGroups, NoFindingsNoGroups) {
  EXPECT_TRUE(group_findings({}).empty());
}

}  // namespace
}  // namespace wcp::analysis
