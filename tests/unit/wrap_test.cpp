// Wrapping text to the screen (render/wrap.h): no line wider than asked, no word lost.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "render/wrap.h"

namespace wcp::render {
namespace {

using ::testing::ElementsAre;

std::string joined_words(const std::vector<std::string>& lines, std::size_t prefix_columns) {
  std::string out;
  for (const auto& line : lines) out += line.substr(prefix_columns);
  return out;
}

TEST(Wrap, BreaksAtSpacesWithPrefixes) {
  EXPECT_THAT(wrap("one two three four", 10, "> ", "  "), ElementsAre("> one two", "  three", "  four"));
}

TEST(Wrap, CountsCodePointsNotBytes) {
  EXPECT_EQ(columns("≈ 12 ms — ×"), 11U);
  const auto lines = wrap("≈≈≈≈ ≈≈≈≈", 9, "", "");
  EXPECT_THAT(lines, ElementsAre("≈≈≈≈ ≈≈≈≈"));
}

TEST(Wrap, ANameWithoutBreaksOverflowsRatherThanBeingCut) {
  const auto lines = wrap("see make_stage__locals__stage_1a2b3c4d now", 12, "", "");
  EXPECT_THAT(lines, ElementsAre("see", "make_stage__locals__stage_1a2b3c4d", "now"));
}

TEST(Wrap, ATestIdBreaksOnlyAfterItsSeparators) {
  const std::string id = "tests/linalg/math_test.py::DenseLUTest::test_lu_solve0";
  const auto lines = wrap(id, 40, "  12.0 ms  ", "      ");
  EXPECT_THAT(lines, ElementsAre("  12.0 ms  tests/linalg/math_test.py::", "      DenseLUTest::test_lu_solve0"));
  std::string all = lines[0].substr(11);
  for (std::size_t i = 1; i < lines.size(); ++i) all += lines[i].substr(6);
  EXPECT_EQ(all, id);  // only the breaks were added
}

TEST(Wrap, AnIdOutsideRootdirKeepsItsDotDotWithTheName) {
  const auto lines = wrap("../../other/test_x.py::test_one", 14, "", "");
  EXPECT_EQ(lines.front(), "../../other/");
  EXPECT_THAT(lines, ElementsAre("../../other/", "test_x.py::", "test_one"));
}

TEST(Wrap, EndsWhenThePrefixFillsTheLine) {
  const auto lines = wrap("ab", 2, "xx", "xx");
  EXPECT_EQ(joined_words(lines, 2), "ab");
}

TEST(Wrap, EmptyTextIsThePrefixAlone) {
  EXPECT_THAT(wrap("", 10, "fix: ", "  "), ElementsAre("fix: "));
}

}  // namespace
}  // namespace wcp::render
