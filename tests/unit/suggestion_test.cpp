// "Did you mean": the distance and the nearness rule (io/suggestion).
#include "io/suggestion.h"

#include <gtest/gtest.h>

namespace wcp {
namespace {

TEST(Suggestion, EditDistanceCountsTranspositionsAsOne) {
  EXPECT_EQ(edit_distance("check", "check"), 0u);
  EXPECT_EQ(edit_distance("chekc", "check"), 1u);
  EXPECT_EQ(edit_distance("mesure", "measure"), 1u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Suggestion, SuggestsOnlyANearName) {
  const std::vector<std::string_view> commands{"measure", "compare", "check", "calibrate", "history"};
  EXPECT_EQ(closest_name("mesure", commands), "measure");
  EXPECT_EQ(closest_name("chek", commands), "check");
  EXPECT_EQ(closest_name("hsitory", commands), "history");
  EXPECT_EQ(closest_name("frobnicate", commands), std::nullopt);
  EXPECT_EQ(closest_name("x", commands), std::nullopt);
  EXPECT_EQ(did_you_mean("compre", commands), " (did you mean 'compare'?)");
  EXPECT_EQ(did_you_mean("deploy", commands), "");
}

}  // namespace
}  // namespace wcp
