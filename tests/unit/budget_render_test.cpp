// The budget renderers only format what the result holds: failures first in Markdown, one
// line per budget in text, every field in JSON.
#include <gtest/gtest.h>

#include <sstream>

#include "render/budget_json.h"
#include "render/budget_markdown.h"
#include "render/budget_text.h"

namespace wcp::render {
namespace {

budget::BudgetOutcome outcome(std::string name, budget::Verdict verdict, std::optional<double> measured, double limit,
                              budget::Unit unit) {
  budget::BudgetOutcome outcome;
  outcome.budget = std::move(name);
  outcome.verdict = verdict;
  outcome.measured = measured;
  outcome.limit = limit;
  outcome.unit = unit;
  return outcome;
}

budget::CheckResult sample_result() {
  budget::CheckResult result;
  result.file = "/repo/budgets.yaml";
  budget::CommandResult good;
  good.name = "good";
  good.line = 3;
  good.outcomes.push_back(outcome("max_modules", budget::Verdict::pass, 1, 2, budget::Unit::count));
  budget::CommandResult bad;
  bad.name = "bad";
  bad.line = 9;
  bad.outcomes.push_back(outcome("cold_seconds", budget::Verdict::pass, 1.25, 2, budget::Unit::seconds));
  bad.outcomes.push_back(outcome("max_builds_per_module", budget::Verdict::fail, 4, 1, budget::Unit::count));
  budget::Offender churn;
  churn.module = "__main__";
  churn.detail = "4 builds, hashes a b c d";
  churn.rebuild = RebuildCause::identity_churn;
  churn.mechanism = Mechanism::late_kernel;
  churn.fix = "define every kernel first";
  bad.outcomes.back().offenders = {churn};
  bad.outcomes.push_back(
      outcome("compile_elapsed_seconds", budget::Verdict::fail, std::nullopt, 2, budget::Unit::seconds));
  budget::CommandResult gpu;
  gpu.name = "gpu";
  gpu.not_run = "needs a CUDA device";
  result.commands = {good, bad, gpu};
  return result;
}

TEST(BudgetRender, TextHasOneLinePerBudgetAndOffenders) {
  std::ostringstream out;
  const auto result = sample_result();
  for (const auto& command : result.commands) render_command_result(command, out);
  render_budget_summary(result, out);
  const std::string text = out.str();
  EXPECT_NE(text.find("PASS             max_modules                 1 <= 2"), std::string::npos) << text;
  EXPECT_NE(text.find("FAIL             max_builds_per_module       4 > 1"), std::string::npos) << text;
  EXPECT_NE(text.find("__main__: 4 builds, hashes a b c d"), std::string::npos);
  EXPECT_NE(text.find("identity churn — CS-1 Kernel defined after its module loaded; fix: define every kernel first"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("compile_elapsed_seconds     unavailable vs 2.000 s"), std::string::npos) << text;
  EXPECT_NE(text.find("NOT RUN  needs a CUDA device"), std::string::npos);
  EXPECT_NE(text.find("3 command(s): 1 passed, 1 failed, 1 not run"), std::string::npos) << text;
}

TEST(BudgetRender, MarkdownPutsFailuresFirst) {
  const std::string markdown = render_budget_markdown(sample_result());
  const auto fail = markdown.find("❌ FAIL | `bad` | max_builds_per_module | 4 | 1");
  const auto pass = markdown.find("✅ pass");
  ASSERT_NE(fail, std::string::npos) << markdown;
  ASSERT_NE(pass, std::string::npos);
  EXPECT_LT(fail, pass);
  EXPECT_NE(markdown.find("### `bad`: max_builds_per_module"), std::string::npos);
  EXPECT_NE(markdown.find("**Failed.**"), std::string::npos);
}

TEST(BudgetRender, JsonCarriesVerdictsAndOffenders) {
  const auto json = budget_result_to_json(sample_result());
  EXPECT_FALSE(json["passed"].get<bool>());
  EXPECT_EQ(json["commands"][1]["status"], "fail");
  EXPECT_EQ(json["commands"][1]["outcomes"][1]["verdict"], "fail");
  EXPECT_EQ(json["commands"][1]["outcomes"][1]["offenders"][0]["module"], "__main__");
  EXPECT_EQ(json["commands"][1]["outcomes"][1]["offenders"][0]["mechanism"], "CS-1");
  EXPECT_TRUE(json["commands"][1]["outcomes"][2]["measured"].is_null());
  EXPECT_EQ(json["commands"][2]["status"], "not_run");
}

}  // namespace
}  // namespace wcp::render
