// ${NAME} expansion and shell-like splitting of command strings (no shell is ever run).
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "budget/variables.h"
#include "io/command_line.h"

namespace wcp::budget {
namespace {

TEST(BudgetExpand, ExpandsSetVariables) {
  EXPECT_EQ(expand_variables("${A}/bin/${B}", lookup_in({{"A", "/opt"}, {"B", "x"}})), "/opt/bin/x");
  EXPECT_EQ(expand_variables("plain", lookup_in({})), "plain");
  EXPECT_EQ(expand_variables("cost $$5", lookup_in({})), "cost $5");
}

TEST(BudgetExpand, FallbacksAndThePythonDefault) {
  EXPECT_EQ(expand_variables("${A:-fallback}", lookup_in({})), "fallback");
  EXPECT_EQ(expand_variables("${A:-fallback}", lookup_in({{"A", ""}})), "fallback");
  EXPECT_EQ(expand_variables("${A:-fallback}", lookup_in({{"A", "set"}})), "set");
  EXPECT_EQ(expand_variables("${WCP_PYTHON}", lookup_in({})), "python3");
  EXPECT_EQ(expand_variables("${WCP_PYTHON}", lookup_in({{"WCP_PYTHON", "/v/python"}})), "/v/python");
}

TEST(BudgetExpand, ErrorsOnUnsetOrMalformed) {
  EXPECT_THROW(expand_variables("${MISSING}", lookup_in({})), std::invalid_argument);
  EXPECT_THROW(expand_variables("${UNCLOSED", lookup_in({})), std::invalid_argument);
  EXPECT_THROW(expand_variables("$HOME", lookup_in({{"HOME", "/h"}})), std::invalid_argument);
  EXPECT_THROW(expand_variables("${1BAD}", lookup_in({})), std::invalid_argument);
}

TEST(BudgetExpand, SplitsLikeAShellWithoutOne) {
  using Words = std::vector<std::string>;
  EXPECT_EQ(split_command_line("python  app.py --n 3"), (Words{"python", "app.py", "--n", "3"}));
  EXPECT_EQ(split_command_line("a 'b c' \"d \\\"e\\\"\" f\\ g"), (Words{"a", "b c", "d \"e\"", "f g"}));
  EXPECT_EQ(split_command_line("x '' y"), (Words{"x", "", "y"}));
  EXPECT_EQ(split_command_line("echo a|b;c"), (Words{"echo", "a|b;c"}));
  EXPECT_THROW(split_command_line("'open"), std::invalid_argument);
  EXPECT_THROW(split_command_line("\"open"), std::invalid_argument);
}

}  // namespace
}  // namespace wcp::budget
