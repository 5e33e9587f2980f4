// cli/option_table: each row becomes the option its target and rules say.
#include "cli/option_table.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <vector>

namespace wcp::cli {
namespace {

using ::testing::HasSubstr;

struct Arguments {
  std::string file;
  std::string only;
  bool quiet = false;
  bool verbose = false;
  int samples = 3;
  double minutes = 0;
  std::vector<std::string> ids;
  std::vector<std::string> ignored;
  std::string mode = "run";
  std::string explain;
};

struct Parsed {
  Arguments arguments;
  std::string error;  // "" when the line parsed
};

Parsed parse(std::vector<std::string> line) {
  Parsed parsed;
  Arguments& a = parsed.arguments;
  CLI::App app("test");
  add_options(app, {{"file", &a.file, "A file", {.required = true}},
                    {"--only", &a.only, "One entry"},
                    {"--quiet", &a.quiet, "No progress"},
                    {"--verbose", &a.verbose, "Everything"},
                    {"--samples", &a.samples, "Samples", {.show_default = true, .check = CLI::Range(1, 10)}},
                    {"--minutes", &a.minutes, "Minutes", {.check = CLI::PositiveNumber, .needs = "--quiet"}},
                    {"--ids", &a.ids, "Ids", {.delimiter = ','}},
                    {"--ignore", &a.ignored, "Regexes", {.every_value = true}},
                    {"--mode", &a.mode, "Mode", {.check = CLI::IsMember({"run", "calibration"})}},
                    {"--explain", &a.explain, "One", {.excludes = "--verbose"}}});
  std::reverse(line.begin(), line.end());  // CLI11 takes the arguments last first
  try {
    app.parse(line);
  } catch (const CLI::ParseError& error) {
    parsed.error = error.what();
  }
  return parsed;
}

TEST(OptionTable, AValueRowFillsItsTargetAndABoolRowIsAFlag) {
  const Parsed parsed = parse({"budget.yaml", "--only", "a", "--quiet", "--samples", "4"});
  ASSERT_EQ(parsed.error, "");
  EXPECT_EQ(parsed.arguments.file, "budget.yaml");
  EXPECT_EQ(parsed.arguments.only, "a");
  EXPECT_TRUE(parsed.arguments.quiet);
  EXPECT_FALSE(parsed.arguments.verbose);
  EXPECT_EQ(parsed.arguments.samples, 4);
}

TEST(OptionTable, ARequiredRowIsRequired) {
  EXPECT_THAT(parse({"--quiet"}).error, HasSubstr("file is required"));
}

TEST(OptionTable, ARowsCheckRefusesAValueOutsideIt) {
  EXPECT_THAT(parse({"f", "--samples", "11"}).error, HasSubstr("--samples"));
  EXPECT_THAT(parse({"f", "--mode", "other"}).error, HasSubstr("--mode"));
  EXPECT_EQ(parse({"f", "--mode", "calibration"}).arguments.mode, "calibration");
}

TEST(OptionTable, ADelimiterSplitsOneValueAndEveryValueKeepsEachOccurrence) {
  const Parsed parsed = parse({"f", "--ids", "a,b", "--ignore", "x", "--ignore", "y"});
  ASSERT_EQ(parsed.error, "");
  EXPECT_EQ(parsed.arguments.ids, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(parsed.arguments.ignored, (std::vector<std::string>{"x", "y"}));
}

TEST(OptionTable, NeedsAndExcludesNameEarlierRows) {
  EXPECT_THAT(parse({"f", "--minutes", "2"}).error, HasSubstr("--minutes requires --quiet"));
  EXPECT_EQ(parse({"f", "--minutes", "2", "--quiet"}).error, "");
  EXPECT_THAT(parse({"f", "--verbose", "--explain", "CS-1"}).error, HasSubstr("excludes"));
  EXPECT_EQ(parse({"f", "--explain", "CS-1"}).arguments.explain, "CS-1");
}

}  // namespace
}  // namespace wcp::cli
