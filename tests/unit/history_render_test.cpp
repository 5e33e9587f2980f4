// The history charts, page and tables (render/history_svg.h, render/history_html.h,
// render/history_text.h, history_markdown.h, history_json.h), drawn from series that
// history::build_series made of hand-made results: eight commits, the third failed, the fifth
// changes the identity set, builds __main__ twice and moves the cold module work +1.2 s; in one
// variant, commits 2 and 7 edit the kernel.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "codec/report_json.h"
#include "history/series_tests.h"
#include "history/trend.h"
#include "render/history_html.h"
#include "render/history_json.h"
#include "render/history_markdown.h"
#include "render/history_svg.h"
#include "render/history_text.h"

namespace wcp::render {
namespace {

using history::Result;

std::string sha_of(int commit) {
  return "c00000" + std::to_string(commit) + std::string(33, 'f');
}
std::string short_of(int commit) {
  return history::short_sha(history::Commit{sha_of(commit), false});
}

Summary summary_at(double median) {
  return Summary{median, 10.0, {median - 10.0, median, median + 10.0}, 3};
}

Result result_at(int commit, const std::string& name = "train") {
  Result result;
  result.name = name;
  result.machine = {"gpu-box", "EPYC", "H100", "550.54", "1.5.0", "12.4", ""};
  result.commit = history::Commit{sha_of(commit), false};
  result.samples = 3;
  const bool changed = commit >= 5;
  result.cold_module_ms = summary_at(changed ? 2200.0 : 1000.0);
  result.identities = changed ? 2 : 1;
  result.identity_set =
      changed ? std::vector<std::string>{"__main__ aaa", "__main__ bbb"} : std::vector<std::string>{"__main__ aaa"};
  result.rebuilt_modules =
      changed ? std::vector<history::ModuleBuilds>{{"__main__", 2}} : std::vector<history::ModuleBuilds>{};
  result.verdict = "PASS";
  return result;
}

Result failed_at(int commit) {
  Result result = result_at(commit);
  result.failed_samples = result.samples;
  result.cold_module_ms.reset();
  result.identities.reset();
  result.identity_set.reset();
  result.rebuilt_modules.reset();
  result.verdict.clear();
  return result;
}

history::Series eight_commits(const std::string& name = "train") {
  std::vector<Result> results;
  for (int commit = 1; commit <= 8; ++commit) {
    Result result = commit == 3 ? failed_at(commit) : result_at(commit);
    result.name = name;
    results.push_back(result);
  }
  auto series = history::build_series(results);
  EXPECT_EQ(series.size(), 1u);
  return series.front();
}

// The same eight commits, where commits 2 and 7 also edit the kernel: new hashes, the same
// identities per module and builds.
history::Series eight_commits_with_edits() {
  std::vector<Result> results;
  for (int commit = 1; commit <= 8; ++commit) {
    Result result = commit == 3 ? failed_at(commit) : result_at(commit);
    const std::string edit = std::to_string(commit >= 7 ? 3 : commit >= 2 ? 2 : 1);
    if (result.identity_set) {
      for (auto& identity : *result.identity_set) identity += edit;
    }
    results.push_back(result);
  }
  auto series = history::build_series(results);
  EXPECT_EQ(series.size(), 1u);
  return series.front();
}

std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++found;
  return found;
}

// The opening tag of every element with this class (exactly, or as the first of several).
std::vector<std::string> tags_of_class(const std::string& svg, const std::string& css_class) {
  std::vector<std::string> tags;
  const std::regex tag("<[a-z]+ class=\"" + css_class + "(?: [^\"]*)?\"[^>]*>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator(); ++it) {
    tags.push_back(it->str());
  }
  return tags;
}

std::string attribute(const std::string& tag, const std::string& name) {
  std::smatch match;
  if (!std::regex_search(tag, match, std::regex(" " + name + "=\"([^\"]*)\""))) return "";
  return match[1].str();
}

TEST(HistoryRenderFixture, BuildSeriesFindsOneStepAtTheFifthCommit) {
  const auto series = eight_commits();
  ASSERT_EQ(series.points.size(), 8u);
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    EXPECT_EQ(series.points[index].step.has_value(), index == 4) << "commit " << index + 1;
  }
  EXPECT_FALSE(series.points[2].result.measured());
  EXPECT_NE(series.points[4].step->summary.find("module __main__ built twice"), std::string::npos)
      << series.points[4].step->summary;
}

TEST(HistoryRenderClock, MarksTheStepOnceAtTheFifthCommit) {
  const std::string svg = history_clock_svg(eight_commits());
  const auto steps = tags_of_class(svg, "step");
  ASSERT_EQ(steps.size(), 1u) << svg;
  EXPECT_EQ(attribute(steps.front(), "data-commit"), short_of(5));
  EXPECT_EQ(count(svg, "stroke-dasharray"), 1u);
}

TEST(HistoryRenderClock, DrawsTheFailedCommitAsAMarkerNeverAsZero) {
  const std::string svg = history_clock_svg(eight_commits());
  const auto failed = tags_of_class(svg, "failed");
  ASSERT_EQ(failed.size(), 1u) << svg;
  EXPECT_EQ(attribute(failed.front(), "data-commit"), short_of(3));
  EXPECT_NE(svg.find(">failed</text>"), std::string::npos);

  const auto points = tags_of_class(svg, "point");
  EXPECT_EQ(points.size(), 7u);
  for (const auto& point : points) {
    EXPECT_NE(attribute(point, "data-commit"), short_of(3)) << point;
    EXPECT_GT(std::stod(attribute(point, "data-ms")), 0.0) << point;
  }
  for (const auto& band : tags_of_class(svg, "band")) EXPECT_NE(attribute(band, "data-commit"), short_of(3)) << band;
  EXPECT_EQ(tags_of_class(svg, "band").size(), 7u);

  // The line breaks at the failed commit: two subpaths, neither reaching its slot.
  const auto line = tags_of_class(svg, "line");
  ASSERT_EQ(line.size(), 1u);
  EXPECT_EQ(count(attribute(line.front(), "d"), "M"), 2u);
}

TEST(HistoryRenderClock, IsStandaloneAndDeterministic) {
  const std::string svg = history_clock_svg(eight_commits());
  EXPECT_EQ(svg.rfind("<svg ", 0), 0u);
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_NE(svg.find("<title>train: cold module work by commit</title>"), std::string::npos);
  EXPECT_EQ(svg, history_clock_svg(eight_commits()));
  for (int commit = 1; commit <= 8; ++commit) {
    EXPECT_NE(svg.find(">" + short_of(commit) + "</text>"), std::string::npos) << commit;
  }
}

TEST(HistoryRenderClock, AnEmptySeriesSaysSo) {
  history::Series empty;
  empty.name = "empty";
  const std::string svg = history_clock_svg(empty);
  EXPECT_NE(svg.find("no results"), std::string::npos);
  EXPECT_TRUE(tags_of_class(svg, "point").empty());
}

TEST(HistoryRenderIdentities, StepsOnceAndLeavesAGapAtTheFailedCommit) {
  const std::string svg = history_identities_svg(eight_commits());
  const auto path = tags_of_class(svg, "identities");
  ASSERT_EQ(path.size(), 1u) << svg;
  const std::string d = attribute(path.front(), "d");
  EXPECT_EQ(count(d, "V"), 1u) << d;
  EXPECT_EQ(count(d, "M"), 2u) << d;  // the gap at commit 3 starts a new subpath

  const auto gaps = tags_of_class(svg, "gap");
  ASSERT_EQ(gaps.size(), 1u);
  EXPECT_EQ(attribute(gaps.front(), "data-commit"), short_of(3));
  EXPECT_EQ(tags_of_class(svg, "point").size(), 7u);
  EXPECT_EQ(attribute(tags_of_class(svg, "point")[4], "data-identities"), "2");  // commit 6
  EXPECT_EQ(attribute(tags_of_class(svg, "point")[2], "data-identities"), "1");  // commit 4
}

TEST(HistoryRenderIdentities, DoesNotStepWhereTheCountStaysTheSame) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 4; ++commit) results.push_back(result_at(commit));  // all before the change
  const std::string svg = history_identities_svg(history::build_series(results).front());
  const std::string d = attribute(tags_of_class(svg, "identities").front(), "d");
  EXPECT_EQ(count(d, "V"), 0u) << d;
  EXPECT_EQ(count(d, "M"), 1u) << d;
}

TEST(HistoryRenderHtml, ShowsTheStepSummaryAndHighlightsItsRow) {
  const auto series = eight_commits();
  const std::string html = render_history_html({series}, "/tmp/history.sqlite");
  EXPECT_NE(html.find("<title>Compile-time history</title>"), std::string::npos);
  EXPECT_NE(html.find("<h1>Compile-time history</h1>"), std::string::npos);
  EXPECT_NE(html.find("/tmp/history.sqlite"), std::string::npos);
  const std::string summary = series.points[4].step->summary;
  EXPECT_NE(html.find(summary), std::string::npos) << summary;
  EXPECT_NE(html.find("<tr class=\"is-step\" data-commit=\"" + short_of(5) + "\">"), std::string::npos);
  EXPECT_EQ(count(html, "class=\"is-step\""), 1u);
  EXPECT_NE(html.find("<tr class=\"is-failed\" data-commit=\"" + short_of(3) + "\">"), std::string::npos);
  EXPECT_NE(html.find("failed (3 of 3 samples)"), std::string::npos);
  EXPECT_NE(html.find("__main__ ×2"), std::string::npos);
  EXPECT_NE(html.find(series.machine.key()), std::string::npos);
  EXPECT_EQ(html.find("no step"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  // Nothing fetched at view time: the only URLs are the two charts' SVG namespace.
  EXPECT_EQ(count(html, "http"), 2u);
  EXPECT_EQ(count(html, "xmlns=\"http://www.w3.org/2000/svg\""), 2u);
  EXPECT_EQ(html.find("href"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
}

TEST(HistoryRenderHtml, EscapesNamesAndSaysNoStep) {
  std::vector<Result> results;
  for (int commit = 1; commit <= 3; ++commit) results.push_back(result_at(commit, "<script>alert(1)</script> & co"));
  const std::string html = render_history_html(history::build_series(results), "a<b>.sqlite");
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("<h2>&lt;script&gt;alert(1)&lt;/script&gt; &amp; co <span class=\"machine\">"),
            std::string::npos);
  EXPECT_NE(html.find("a&lt;b&gt;.sqlite"), std::string::npos);
  EXPECT_NE(html.find("<p class=\"no-step\">no step</p>"), std::string::npos);
}

TEST(HistoryRenderHtml, AnEmptyHistorySaysSo) {
  const std::string html = render_history_html({}, "h.sqlite");
  EXPECT_NE(html.find("holds no results"), std::string::npos);
  EXPECT_EQ(html.find("<section"), std::string::npos);
}

TEST(HistoryRenderNotes, KernelEditsAreNotesInEveryFormatAndTheRebuildTheOneStep) {
  const auto series = eight_commits_with_edits();
  for (std::size_t index = 0; index < series.points.size(); ++index) {
    EXPECT_EQ(series.points[index].step.has_value(), index == 4) << "commit " << index + 1;
    EXPECT_EQ(series.points[index].note.has_value(), index == 1 || index == 6) << "commit " << index + 1;
  }
  const std::string note = "kernel code changed in __main__";

  std::ostringstream text;
  render_history_text({series}, text);
  EXPECT_EQ(count(text.str(), note), 2u) << text.str();
  EXPECT_EQ(count(text.str(), "STEP"), 1u) << text.str();

  std::ostringstream markdown;
  render_history_markdown({series}, markdown);
  EXPECT_EQ(count(markdown.str(), "| " + note + " |"), 2u) << markdown.str();

  const auto json = history_to_json({series});
  const auto& points = json.at("series").at(0).at("points");
  EXPECT_TRUE(points.at(0).at("note").is_null());
  EXPECT_EQ(points.at(1).at("note").at("kind"), "kernel_code_changed");
  EXPECT_EQ(points.at(1).at("note").at("summary"), note);
  EXPECT_EQ(points.at(1).at("note").at("modules"), nlohmann::json::array({"__main__"}));
  EXPECT_TRUE(points.at(1).at("step").is_null());
  const auto& step = points.at(4).at("step");
  EXPECT_TRUE(step.at("structure_changed").get<bool>());
  EXPECT_TRUE(step.at("identities_changed").get<bool>());
  EXPECT_EQ(step.at("newly_rebuilt"), nlohmann::json::parse(R"([{"module":"__main__","builds":2}])"));
  EXPECT_TRUE(step.at("warm_compiles_change").is_null());

  const std::string html = render_history_html({series}, "h.sqlite");
  EXPECT_EQ(count(html, "<td class=\"note\">" + note + "</td>"), 2u);
  EXPECT_EQ(count(html, "class=\"is-step\""), 1u);
  EXPECT_NE(html.find("<p class=\"notes\">"), std::string::npos);

  const std::string svg = history_clock_svg(series);
  const auto notes = tags_of_class(svg, "note");
  ASSERT_EQ(notes.size(), 2u) << svg;
  EXPECT_EQ(attribute(notes[0], "data-commit"), short_of(2));
  EXPECT_EQ(attribute(notes[1], "data-commit"), short_of(7));
  EXPECT_EQ(tags_of_class(svg, "step").size(), 1u);
}

TEST(HistoryRenderNotes, ASeriesWithoutEditsHasNoNotes) {
  const auto series = eight_commits();
  std::ostringstream text;
  render_history_text({series}, text);
  EXPECT_EQ(text.str().find("kernel code changed in"), std::string::npos) << text.str();
  EXPECT_TRUE(tags_of_class(history_clock_svg(series), "note").empty());
  EXPECT_EQ(render_history_html({series}, "h.sqlite").find("<p class=\"notes\">"), std::string::npos);
}

TEST(HistoryRenderHtml, ListsTheSlowestTestsOfTheNewestRunAndEachBranchsVerdict) {
  // The newest run stored its report, with what two tests built.
  Report report;
  report.samples = 1;
  report.cold_module_ms = Summary{900.0, 0.0, {900.0}, 1};
  report.tests = std::vector<TestCompileCost>{{"tests/test_a.py::test_slow", std::nullopt, 2, 700.0, {}, {}},
                                              {"tests/test_a.py::test_fast", std::nullopt, 1, 200.0, {}, {}}};
  std::vector<Result> results{result_at(1), result_at(2)};
  results[1].report_json = report_to_json_text(report);
  results[0].branch = "main";
  results[1].branch = "pr-3";
  results[1].id = 2;
  results[0].id = 1;
  const auto series = history::build_series(results);
  const auto tests = history::slowest_tests_per_series(series, 5);
  ASSERT_EQ(tests.size(), 1u);
  ASSERT_TRUE(tests[0].has_value());
  EXPECT_EQ(tests[0]->ranking.slowest.front().name, "tests/test_a.py::test_slow");
  const std::string html = render_history_html(series, "h.sqlite", history::latest_branch_verdicts(results, 10), tests);
  EXPECT_NE(html.find("Slowest tests at <code>" + sha_of(2).substr(0, 7)), std::string::npos) << html;
  EXPECT_LT(html.find("test_slow"), html.find("test_fast"));
  EXPECT_NE(html.find("<tr data-branch=\"pr-3\">"), std::string::npos);
  EXPECT_LT(html.find("data-branch=\"pr-3\""), html.find("data-branch=\"main\""));  // newest first
}

}  // namespace
}  // namespace wcp::render
