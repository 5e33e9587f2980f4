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

TEST(Wrap, CutsAWordLongerThanALine) {
  const auto lines = wrap("see make_stage__locals__stage_1a2b3c4d now", 12, "", "");
  for (const auto& line : lines) EXPECT_LE(columns(line), 12U) << line;
  std::string all;
  for (const auto& line : lines) all += line;
  EXPECT_NE(all.find("make_stage__locals__stage_1a2b3c4d"), std::string::npos);  // only the breaks were added
  EXPECT_EQ(lines.back(), "4d now");  // the cut word's tail shares its line with the next
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
