// What the step rule compares (history/structure.h): identities and builds per module, warm
// compiles and LTO artifacts; new hashes with the same structure are an edit, not a change.
#include <gtest/gtest.h>

#include "history/structure.h"

namespace wcp::history {
namespace {

Result compiled(std::vector<std::string> identities, std::vector<ModuleBuilds> rebuilt = {}) {
  Result result;
  result.samples = 1;
  result.identities = identities.size();
  result.identity_set = std::move(identities);
  result.rebuilt_modules = std::move(rebuilt);
  result.warm_compiles = 0;
  result.lto_artifacts = 0;
  return result;
}

TEST(HistoryStructure, NewHashesWithTheSameCountsAreAnEdit) {
  const auto change =
      compare_structure(compiled({"__main__ aaaaaaa", "sim bbbbbbb"}), compiled({"__main__ ccccccc", "sim bbbbbbb"}));
  EXPECT_TRUE(change.identities_differ);
  EXPECT_FALSE(change.structural());
  EXPECT_TRUE(change.code_edited());
  EXPECT_EQ(change.modules_with_new_hashes(), std::vector<std::string>{"__main__"});
  EXPECT_EQ(change.identities_added, std::vector<std::string>{"__main__ ccccccc"});
  EXPECT_EQ(change.identities_removed, std::vector<std::string>{"__main__ aaaaaaa"});
}

TEST(HistoryStructure, TheSameIdentitiesAreNoChange) {
  const auto change = compare_structure(compiled({"__main__ aaaaaaa"}), compiled({"__main__ aaaaaaa"}));
  EXPECT_FALSE(change.identities_differ);
  EXPECT_FALSE(change.structural());
  EXPECT_FALSE(change.code_edited());
}

TEST(HistoryStructure, AnotherIdentityInAModuleIsStructure) {
  const auto change = compare_structure(compiled({"__main__ aaaaaaa"}),
                                        compiled({"__main__ aaaaaaa", "__main__ bbbbbbb"}, {{"__main__", 2}}));
  EXPECT_TRUE(change.structural());
  EXPECT_FALSE(change.code_edited());
  EXPECT_EQ(change.identities, (CountChange{1, 2}));
  EXPECT_EQ(change.identities_per_module, (std::vector<ModuleIdentities>{{"__main__", 1, 2}}));
  EXPECT_EQ(change.built_more, (std::vector<ModuleBuilds>{{"__main__", 2}}));
}

// A module that was rebuilt and is gone is "removed", not "built once".
TEST(HistoryStructure, ARemovedModuleIsNotBuiltFewerTimes) {
  const auto change =
      compare_structure(compiled({"__main__ aaaaaaa", "sim b", "sim c"}, {{"sim", 2}}), compiled({"__main__ aaaaaaa"}));
  EXPECT_EQ(change.identities_per_module, (std::vector<ModuleIdentities>{{"sim", 2, 0}}));
  EXPECT_TRUE(change.built_fewer.empty());
}

TEST(HistoryStructure, UniqueModulesAreCountedUnderTheirKernel) {
  EXPECT_EQ(structural_module_name("integrate_0f1e2d3c"), "integrate");
  EXPECT_EQ(structural_module_name("__main__"), "__main__");
  EXPECT_EQ(structural_module_name("warp.fem.integrate_0f1e2d3c"), "warp.fem.integrate_0f1e2d3c");
  const auto change =
      compare_structure(compiled({"integrate_0f1e2d3c 0f1e2d3"}), compiled({"integrate_9a8b7c6d 9a8b7c6"}));
  EXPECT_FALSE(change.structural());
  EXPECT_EQ(change.modules_with_new_hashes(), std::vector<std::string>{"integrate"});
}

TEST(HistoryStructure, WarmCompilesAndLtoArtifactsCountOnlyWhereBothRecordedThem) {
  Result before = compiled({"__main__ aaaaaaa"});
  Result after = compiled({"__main__ aaaaaaa"});
  after.warm_compiles = 1;
  after.lto_artifacts = 2;
  auto change = compare_structure(before, after);
  EXPECT_EQ(change.warm_compiles, (CountChange{0, 1}));
  EXPECT_EQ(change.lto_artifacts, (CountChange{0, 2}));
  before.warm_compiles.reset();
  before.lto_artifacts.reset();
  change = compare_structure(before, after);
  EXPECT_FALSE(change.structural());
}

}  // namespace
}  // namespace wcp::history
