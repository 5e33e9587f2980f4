// Budget file schema: merge of defaults, expansion, and every configuration error with its
// FILE:LINE location.
#include <gtest/gtest.h>

#include <fstream>

#include <filesystem>
#include <map>
#include <optional>

#include "budget/budget_keys.h"
#include "budget/budget_parse.h"
#include "errors.h"

namespace wcp::budget {
namespace {

EnvironmentLookup fake_environment(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

const LoadOptions kSchemaOnly{.check_files = false, .baseline_may_be_missing = false};

BudgetFile parse(const std::string& text) {
  return parse_budget_text(text, "/project/budget.yaml", fake_environment({{"WCP_PYTHON", "/venv/bin/python"}}),
                           kSchemaOnly);
}

// The message of the UsageError that parsing `text` throws.
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(BudgetParse, DefaultsMergeIntoEachEntry) {
  const auto file = load_budget_file(std::string(WCP_TEST_DATA_DIR) + "/budgets/merge.yaml",
                                     fake_environment({{"WCP_PYTHON", "/venv/bin/python"}}), kSchemaOnly);
  ASSERT_EQ(file.commands.size(), 2u);
  const auto& first = file.commands[0];
  EXPECT_EQ(first.name, "first");
  EXPECT_EQ(first.command, (std::vector<std::string>{"/venv/bin/python", "app.py", "--flag"}));
  EXPECT_EQ(first.cwd, std::filesystem::path(WCP_TEST_DATA_DIR) / "budgets" / "sub");
  EXPECT_EQ(first.samples, 2);
  EXPECT_EQ(first.timeout, std::chrono::milliseconds(30'000));
  EXPECT_EQ(first.env.at("SHARED"), "from-defaults");
  EXPECT_EQ(first.env.at("OVERRIDDEN"), "from-entry");
  EXPECT_EQ(first.budgets.max_modules, 2u);
  EXPECT_EQ(first.budgets.warm_near_zero, true);
  EXPECT_FALSE(first.budgets.max_builds_per_module.has_value());  // evaluation applies the default of 1
  EXPECT_EQ(first.budgets.allow_rebuilds.at("__main__"), "benchmarks two block_dims on purpose");
  EXPECT_EQ(first.baseline_report, std::filesystem::path(WCP_TEST_DATA_DIR) / "budgets" / "reports" / "first.json");
  EXPECT_EQ(first.device, DeviceRequirement::any);

  const auto& second = file.commands[1];
  EXPECT_EQ(second.command, (std::vector<std::string>{"/venv/bin/python", "two words.py", "its", "a b"}));
  EXPECT_EQ(second.samples, 4);
  EXPECT_EQ(second.budgets.max_modules, 5u);
  EXPECT_EQ(second.budgets.max_builds_per_module, 3u);
  EXPECT_EQ(second.budgets.cold_seconds, 1.5);
  EXPECT_EQ(second.budgets.max_generated_source_bytes, 100000u);
  EXPECT_EQ(second.budgets.max_lto_artifacts, 0u);
  EXPECT_EQ(second.device, DeviceRequirement::cuda);
  EXPECT_FALSE(second.baseline_report.has_value());
}

TEST(BudgetParse, UnknownKeyNamesLineAndKnownKeys) {
  const auto message = error_of("commands:\n  - name: a\n    command: [x]\n    max_module: 3\n");
  EXPECT_NE(message.find("/project/budget.yaml:4: unknown key 'max_module' in a command entry"), std::string::npos)
      << message;
  EXPECT_NE(message.find("max_modules"), std::string::npos) << message;
}

TEST(BudgetParse, UnknownKeySuggestsTheNearestKnownKey) {
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    max_identites: 3\n")
                .find("unknown key 'max_identites' in a command entry (did you mean 'max_identities'?)"),
            std::string::npos);
  EXPECT_NE(error_of("defaults:\n  sampels: 3\ncommands:\n  - name: a\n    command: [x]\n")
                .find("unknown key 'sampels' in defaults (did you mean 'samples'?)"),
            std::string::npos);
  EXPECT_NE(error_of("comands:\n  - name: a\n    command: [x]\n")
                .find("unknown key 'comands' at the top level (did you mean 'commands'?)"),
            std::string::npos);
  // Nothing near: no guess.
  EXPECT_EQ(error_of("commands:\n  - name: a\n    command: [x]\n    colour: red\n").find("did you mean"),
            std::string::npos);
}

TEST(BudgetParse, UnknownKeyInDefaultsAndTopLevel) {
  EXPECT_NE(error_of("defaults:\n  sample: 3\ncommands:\n  - name: a\n    command: [x]\n")
                .find("budget.yaml:2: unknown key 'sample' in defaults"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\nbudgets: {}\n")
                .find("budget.yaml:4: unknown key 'budgets' at the top level"),
            std::string::npos);
}

TEST(BudgetParse, WrongTypesNameLine) {
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    samples: three\n")
                .find("budget.yaml:4: 'samples' must be a whole number >= 1, got 'three'"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    warm_near_zero: yes\n")
                .find("budget.yaml:4: 'warm_near_zero' must be true or false, got 'yes'"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    cold_seconds: [1]\n")
                .find("budget.yaml:4: 'cold_seconds' must be a number >= 0, got a list"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: {x: 1}\n").find("budget.yaml:3: 'command' must be a list"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    env: [A=1]\n")
                .find("budget.yaml:4: 'env' must be a mapping"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    device: gpu\n")
                .find("budget.yaml:4: 'device' must be cpu, cuda or any, got 'gpu'"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    max_modules: -1\n")
                .find("budget.yaml:4: 'max_modules' must be a whole number >= 0"),
            std::string::npos);
}

TEST(BudgetParse, ABaselineIsAReportOrARevisionAndAnEntryOverridesEitherForm) {
  const auto file = parse(
      "defaults:\n  baseline_threshold_percent: 3\ncommands:\n"
      "  - name: a\n    command: [x]\n    baseline: {rev: \"${WCP_PYTHON}\"}\n"
      "  - name: b\n    command: [x]\n    baseline: reports/b.json\n");
  EXPECT_EQ(file.commands[0].baseline_rev, "/venv/bin/python") << "variables expand in a revision";
  EXPECT_FALSE(file.commands[0].baseline_report);
  EXPECT_EQ(file.commands[0].budgets.baseline_threshold_percent, 3.0);
  EXPECT_FALSE(file.commands[1].baseline_rev);
  EXPECT_EQ(file.commands[1].baseline_report, std::filesystem::path("/project/reports/b.json"));
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    baseline: {commit: main}\n")
                .find("budget.yaml:4: 'baseline' takes a report path or {rev: REV}, not 'commit'"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    baseline: {rev: \"\"}\n")
                .find("budget.yaml:4: 'baseline.rev' is empty"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    baseline_threshold_percent: 0\n")
                .find("budget.yaml:4: 'baseline_threshold_percent' must be"),
            std::string::npos);
}

TEST(BudgetParse, TimeoutBeyondAYearIsAnErrorNotAnOverflow) {
  // 3e130 s times 1000 does not fit a long long of milliseconds; budget_fuzz found the cast.
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    timeout: 3e130\n")
                .find("budget.yaml:2: command 'a': 'timeout' is more than a year of seconds"),
            std::string::npos);
  EXPECT_EQ(parse("commands:\n  - name: a\n    command: [x]\n    timeout: 31536000\n").commands.at(0).timeout,
            std::chrono::milliseconds(31'536'000'000LL));
}

TEST(BudgetParse, DuplicateNamesAndKeys) {
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n  - name: a\n    command: [y]\n")
                .find("budget.yaml:4: duplicate command name 'a' (first at line 2)"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: [x]\n    samples: 1\n    samples: 2\n")
                .find("budget.yaml:5: duplicate key 'samples' in a command entry (first at line 4)"),
            std::string::npos);
}

TEST(BudgetParse, MissingPiecesNameLine) {
  EXPECT_NE(error_of("commands:\n  - name: a\n    samples: 1\n").find("budget.yaml:2: command 'a' has no 'command'"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - command: [x]\n").find("budget.yaml:2: command entry without a 'name'"),
            std::string::npos);
  EXPECT_NE(error_of("defaults: {samples: 1}\n").find("'commands' must be a non-empty list"), std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a/b\n    command: [x]\n").find("budget.yaml:2: 'name' may only use"),
            std::string::npos);
  EXPECT_NE(error_of("commands:\n  - name: a\n    command: \"x 'y\"\n")
                .find("budget.yaml:3: 'command': unterminated single quote"),
            std::string::npos);
  EXPECT_NE(error_of("commands: [\n").find("budget.yaml:"), std::string::npos);
}

TEST(BudgetParse, UnsetVariableNamesLine) {
  const auto message = error_of("commands:\n  - name: a\n    command: [\"${NOPE}\", x]\n");
  EXPECT_NE(message.find("budget.yaml:3: environment variable NOPE is not set"), std::string::npos) << message;
}

TEST(BudgetParse, MissingFilesAreReportedWithLine) {
  const auto directory = std::filesystem::temp_directory_path() / "wcp_budget_parse_test";
  std::filesystem::create_directories(directory);
  const auto environment = fake_environment({});
  auto error_with_files = [&](const std::string& text) -> std::string {
    try {
      parse_budget_text(text, directory / "b.yaml", environment, LoadOptions{});
    } catch (const UsageError& error) {
      return error.what();
    }
    return "(no error)";
  };
  EXPECT_NE(
      error_with_files("commands:\n  - name: a\n    command: [./no-such-program]\n").find("b.yaml:3: command 'a':"),
      std::string::npos);
  EXPECT_NE(error_with_files("commands:\n  - name: a\n    command: [sh, -c, 'true']\n    cwd: missing-dir\n")
                .find("b.yaml:4: command 'a': working directory"),
            std::string::npos);
  const auto baseline_error =
      error_with_files("commands:\n  - name: a\n    command: [sh, -c, 'true']\n    baseline: gone.json\n");
  EXPECT_NE(baseline_error.find("b.yaml:4: command 'a': baseline report"), std::string::npos) << baseline_error;
  // --update-baseline creates baselines, so a missing one is fine then.
  EXPECT_NO_THROW(parse_budget_text("commands:\n  - name: a\n    command: [sh, -c, 'true']\n    baseline: gone.json\n",
                                    directory / "b.yaml", environment, LoadOptions{.baseline_may_be_missing = true}));
  EXPECT_THROW(load_budget_file(directory / "absent.yaml", environment), UsageError);
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace wcp::budget

namespace wcp::budget {
namespace {

// The key table is the schema: every key it accepts must be documented for users.
TEST(BudgetKeys, EveryKeyIsDocumented) {
  std::ifstream docs(std::string(WCP_SOURCE_DIR) + "/docs/budgets.md");
  ASSERT_TRUE(docs) << "docs/budgets.md not found";
  const std::string text((std::istreambuf_iterator<char>(docs)), std::istreambuf_iterator<char>());
  for (const auto& spec : budget_keys()) {
    EXPECT_NE(text.find(std::string(spec.name) + ":"), std::string::npos) << spec.name << " is not in docs/budgets.md";
    EXPECT_FALSE(spec.doc.empty()) << spec.name;
  }
}

TEST(BudgetKeys, KnownKeysListsTheTableForEntriesAndDefaults) {
  EXPECT_NE(known_keys(true).find("name, command"), std::string::npos);
  EXPECT_EQ(known_keys(false).find("command"), std::string::npos);  // not allowed in defaults
  EXPECT_NE(known_keys(false).find("gate_on_elapsed"), std::string::npos);
}

}  // namespace
}  // namespace wcp::budget
