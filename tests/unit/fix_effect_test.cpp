// Advice never changes a program's behaviour without saying so: every fix that names one of the
// options whose value changes results, precision, debuggability, launches or the kernels built
// (fast_math, mode, enable_backward, max_unroll, lineinfo, block_dim) says what it changes, in
// the catalogue, in docs/mechanisms.md and in the findings of real reports.
#include "model/fix_effect.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "analysis/diagnose.h"
#include "codec/report_json.h"
#include "model/mechanism.h"

namespace wcp {
namespace {

namespace fs = std::filesystem;

// The behaviour-changing options `text` names, as whole words ("mode" inside "module" is not one).
std::vector<std::string> options_named(const std::string& text) {
  std::vector<std::string> named;
  for (const auto option : behaviour_options()) {
    const std::regex word("(^|[^A-Za-z_])" + std::string(option) + "($|[^A-Za-z_])");
    if (std::regex_search(text, word)) named.emplace_back(option);
  }
  return named;
}

void expect_behaviour_names_every_option_of_the_fix(const std::string& fix, const std::string& behaviour,
                                                    const std::string& where) {
  for (const auto& option : options_named(fix)) {
    EXPECT_NE(behaviour.find(option), std::string::npos)
        << where << ": the fix names " << option << " but its behaviour does not say what it changes\n  fix: " << fix
        << "\n  behaviour: " << behaviour;
  }
}

TEST(FixEffect, EveryNamedOptionHasItsEffect) {
  for (const auto option : behaviour_options()) {
    const auto effect = option_behaviour(option);
    ASSERT_TRUE(effect.has_value()) << option;
    EXPECT_TRUE(effect->starts_with("changes ")) << option;
    EXPECT_EQ(setting_option(option).effect, FixEffect::changes_behaviour) << option;
  }
  EXPECT_EQ(setting_option("use_precompiled_headers").effect, FixEffect::keeps_behaviour);
  // Not catalogued: never promised to be harmless.
  EXPECT_EQ(setting_option("optimization_level").effect, FixEffect::changes_behaviour);
  EXPECT_NE(setting_option("optimization_level").what.find("compare"), std::string::npos);
}

TEST(FixEffect, OptionNamesAreMatchedAsWords) {
  EXPECT_EQ(options_named("put it in the module of its own"), std::vector<std::string>{});
  EXPECT_EQ(options_named("set \"fast_math\": True and mode=debug"), (std::vector<std::string>{"fast_math", "mode"}));
}

TEST(FixEffect, EveryCatalogueFixSaysWhatItChanges) {
  for (const auto& row : mechanism_catalogue()) {
    EXPECT_FALSE(row.behaviour.empty()) << row.code;
    expect_behaviour_names_every_option_of_the_fix(std::string(row.fix), std::string(row.behaviour),
                                                   std::string(row.code));
  }
}

TEST(FixEffect, EveryMechanismSectionOfTheDocsSaysWhatItsFixChanges) {
  std::ifstream file(fs::path(WCP_SOURCE_DIR) / "docs" / "mechanisms.md");
  ASSERT_TRUE(file) << "docs/mechanisms.md";
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  for (const auto& row : mechanism_catalogue()) {
    const std::string heading = "\n## " + std::string(row.code) + " ";
    const auto start = doc.find(heading);
    if (start == std::string::npos) continue;  // shares another mechanism's section (identity-churn)
    const auto end = doc.find("\n## ", start + heading.size());
    const std::string section = doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
    const auto behaviour_at = section.find("**Behaviour:**");
    ASSERT_NE(behaviour_at, std::string::npos) << row.code << " has no Behaviour line";
    const auto behaviour_end = section.find("\n- ", behaviour_at);
    const std::string behaviour = section.substr(behaviour_at, behaviour_end - behaviour_at);
    EXPECT_TRUE(behaviour.find("Keeps behaviour") != std::string::npos ||
                behaviour.find("Changes behaviour") != std::string::npos)
        << row.code;
    // Every fix the section gives: the Fix line and any "Fix:" inside its named causes.
    for (std::size_t at = section.find("Fix:"); at != std::string::npos; at = section.find("Fix:", at + 4)) {
      const auto fix_end = section.find("\n- ", at);
      expect_behaviour_names_every_option_of_the_fix(section.substr(at, fix_end - at), behaviour,
                                                     "docs/mechanisms.md " + std::string(row.code));
    }
  }
}

TEST(FixEffect, EveryFindingOfTheRecordedRunsSaysWhatItsFixChanges) {
  // 35 reports of real runs on an H200 (tests/data/cuda-recorded/probe), every fixture app and
  // twin: whatever the findings' fixes name, their behaviour says what it changes.
  std::size_t findings = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(WCP_TEST_DATA_DIR) / "cuda-recorded" / "probe")) {
    if (entry.path().extension() != ".json") continue;
    for (const auto& finding : analysis::diagnose(load_report(entry.path().string())).findings) {
      ++findings;
      EXPECT_FALSE(finding.behaviour.empty()) << entry.path() << " " << code(finding.mechanism);
      expect_behaviour_names_every_option_of_the_fix(
          finding.fix, finding.behaviour,
          entry.path().filename().string() + " " + std::string(code(finding.mechanism)));
    }
  }
  EXPECT_GT(findings, 20u);
}

}  // namespace
}  // namespace wcp
