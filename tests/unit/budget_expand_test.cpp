// ${NAME} expansion and shell-like splitting of command strings (no shell is ever run).
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "budget/expand.h"

namespace wcp::budget {
namespace {

EnvironmentLookup with(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    return it == values.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
}

TEST(BudgetExpand, ExpandsSetVariables) {
  EXPECT_EQ(expand_variables("${A}/bin/${B}", with({{"A", "/opt"}, {"B", "x"}})), "/opt/bin/x");
  EXPECT_EQ(expand_variables("plain", with({})), "plain");
  EXPECT_EQ(expand_variables("cost $$5", with({})), "cost $5");
}

TEST(BudgetExpand, FallbacksAndThePythonDefault) {
  EXPECT_EQ(expand_variables("${A:-fallback}", with({})), "fallback");
  EXPECT_EQ(expand_variables("${A:-fallback}", with({{"A", ""}})), "fallback");
  EXPECT_EQ(expand_variables("${A:-fallback}", with({{"A", "set"}})), "set");
  EXPECT_EQ(expand_variables("${WCP_PYTHON}", with({})), "python3");
  EXPECT_EQ(expand_variables("${WCP_PYTHON}", with({{"WCP_PYTHON", "/v/python"}})), "/v/python");
}

TEST(BudgetExpand, ErrorsOnUnsetOrMalformed) {
  EXPECT_THROW(expand_variables("${MISSING}", with({})), std::invalid_argument);
  EXPECT_THROW(expand_variables("${UNCLOSED", with({})), std::invalid_argument);
  EXPECT_THROW(expand_variables("$HOME", with({{"HOME", "/h"}})), std::invalid_argument);
  EXPECT_THROW(expand_variables("${1BAD}", with({})), std::invalid_argument);
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
