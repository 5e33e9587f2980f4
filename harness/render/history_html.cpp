#include "render/history_html.h"

#include <fmt/format.h>

#include "render/history_svg.h"
#include "render/markup_html.h"
#include "render/results_cells.h"
#include "render/svg_charts.h"

namespace wcp::render {
namespace {

// The results report's look; a step row is tinted and a failed row greyed, and both also say so
// in text.
constexpr const char* kHistoryStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1040px; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; } h3 { font-size: 1em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; }
td.num { text-align: right; } code { font-size: .95em; }
tr.is-step td { background: #fff4e5; } tr.is-step td.step-summary { font-weight: 600; }
tr.is-failed td { color: #777; font-style: italic; }
.machine { font-weight: normal; color: #555; } .no-step, .notes, td.note { color: #555; }
.steps li { border-left: 4px solid #c25e00; padding-left: .5em; list-style: none; margin-left: -1.5em; }
.unavailable { color: #777; font-style: italic; }
)";

std::string escape(const std::string& text) {
  return escape_xml(text);
}

std::string clock_cell(const history::Point& point) {
  const auto& result = point.result;
  if (!result.measured()) return fmt::format("failed ({} of {} samples)", result.failed_samples, result.samples);
  if (!result.cold_module_ms) return "not measured";
  return summary_cell(result.cold_module_ms);
}

std::string change_text(const history::Point& point) {
  return point.change_ms ? fmt::format("{:+.1f} ms", *point.change_ms) : "—";
}

// What the level rule saw at this commit, in the clock it reads (history/trend.h).
std::string level_text(const history::Point& point, history::LevelClock clock) {
  std::string value;
  const auto& units = point.result.cold_units;
  if (clock == history::LevelClock::cold_units && units) {
    value = units->mad ? fmt::format("{:.2f} ± {:.2f} units", units->median, *units->mad)
                       : fmt::format("{:.2f} units", units->median);
  }
  std::string move;
  switch (point.clock) {
    case history::ClockMove::none:
      move = point.result.measured() ? "not judged" : "";
      break;
    case history::ClockMove::within:
      move = "within band";
      break;
    case history::ClockMove::above:
      move = "left band, up";
      break;
    case history::ClockMove::below:
      move = "left band, down";
      break;
    case history::ClockMove::returned:
      move = "left band, came back";
      break;
    case history::ClockMove::unconfirmed:
      move = "left band, unconfirmed";
      break;
  }
  if (value.empty()) return move.empty() ? "—" : move;
  return move.empty() ? value : value + " — " + move;
}

std::string rebuilt_text(const history::Result& result) {
  if (!result.measured() || !result.rebuilt_modules) return "—";
  if (result.rebuilt_modules->empty()) return "none";
  std::string text;
  for (const auto& module : *result.rebuilt_modules) {
    text += (text.empty() ? "" : ", ") + fmt::format("{} ×{}", module.name, module.builds);
  }
  return text;
}

void series_section(std::string& out, const history::Series& series) {
  out += "<section class=\"series\">\n";
  out +=
      fmt::format("<h2>{} <span class=\"machine\">{}</span></h2>\n", escape(series.name), escape(series.machine.key()));
  std::string steps;
  for (const auto& point : series.points) {
    if (point.step) {
      steps += fmt::format("<li data-commit=\"{}\">{}</li>\n", escape(history::short_sha(point.commit)),
                           escape(point.step->summary));
    }
  }
  out += steps.empty() ? "<p class=\"no-step\">no step</p>\n" : "<ul class=\"steps\">\n" + steps + "</ul>\n";
  std::string notes;
  for (const auto& point : series.points) {
    if (point.note)
      notes += (notes.empty() ? "" : ", ") + fmt::format("<code>{}</code>", escape(history::short_sha(point.commit)));
  }
  if (!notes.empty()) {
    out += "<p class=\"notes\">Kernel code changed (new hashes, the same structure: a note, not a step) at " + notes +
           ".</p>\n";
  }
  out += series.level_clock == history::LevelClock::cold_units
             ? "<p class=\"level-clock\">Levels are judged in cold units, which divide out the machine's load.</p>\n"
         : series.level_clock == history::LevelClock::cuda_compile_cpu_ms
             ? "<p class=\"level-clock\">The CUDA build for this architecture, measured without a GPU "
               "(<code>--cuda-arch</code>): the chart and the levels are its CPU time.</p>\n"
         : series.level_clock == history::LevelClock::cold_module_cpu_ms
             ? "<p class=\"level-clock\">Levels are judged on cold module CPU, which load on the machine barely "
               "moves; the chart shows the wall.</p>\n"
             : "<p class=\"level-clock\">Levels are judged in cold module work (ms): record with a reference "
               "(<code>--reference</code>) to divide out the machine's load.</p>\n";

  out += "<h3>Cold module work</h3>\n" + history_clock_svg(series) + "\n";
  out += "<h3>Compiled identities</h3>\n" + history_identities_svg(series) + "\n";

  out +=
      "<table>\n<tr><th>commit</th><th>results</th><th>cold module work (median ± MAD)</th>"
      "<th>change vs previous</th><th>level</th><th>identities</th><th>modules built more than "
      "once</th><th>verdict</th>"
      "<th>step</th><th>note</th></tr>\n";
  for (const auto& point : series.points) {
    const auto& result = point.result;
    const char* row_class = point.step ? " class=\"is-step\"" : (!result.measured() ? " class=\"is-failed\"" : "");
    const std::string identities = result.measured() && result.identities ? fmt::format("{}", *result.identities) : "—";
    out += fmt::format(
        "<tr{} data-commit=\"{}\"><td><code>{}</code></td><td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td class=\"num\">{}</td><td>{}</td><td>{}</td><td class=\"step-summary\">{}</td><td class=\"note\">{}</td>"
        "</tr>\n",
        row_class, escape(history::short_sha(point.commit)), escape(history::short_sha(point.commit)), point.results,
        escape(clock_cell(point)), escape(change_text(point)), escape(level_text(point, series.level_clock)),
        identities, escape(rebuilt_text(result)), result.verdict.empty() ? "—" : escape(result.verdict),
        point.step ? escape(point.step->summary) : "", point.note ? escape(point.note->summary) : "");
  }
  out += "</table>\n</section>\n";
}

void slowest_tests_section(std::string& out, const history::SeriesTests& tests) {
  if (tests.ranking.slowest.empty()) return;
  out += fmt::format("<h3>Slowest tests at <code>{}</code></h3>\n", escape(tests.commit));
  out +=
      "<table class=\"slowest-tests\">\n<tr><th>test</th><th>builds</th><th>cold module work</th><th>share</th></tr>\n";
  for (const auto& line : tests.ranking.slowest) {
    out += fmt::format(
        "<tr><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{:.0f} ms</td>"
        "<td class=\"num\">{:.0f} %</td></tr>\n",
        escape(line.name), line.builds, line.ms, line.share * 100.0);
  }
  out += fmt::format("</table>\n<p class=\"notes\">{} of {} tests that built anything.</p>\n",
                     tests.ranking.slowest.size(), tests.ranking.tests);
}

void branch_verdicts_section(std::string& out, const std::vector<history::BranchVerdict>& verdicts) {
  if (verdicts.empty()) return;
  out += "<section class=\"branches\">\n<h2>Latest verdict per branch</h2>\n";
  out +=
      "<table class=\"branch-verdicts\">\n<tr><th>branch</th><th>commit</th><th>command</th><th>runner class</th>"
      "<th>verdict</th><th>recorded</th></tr>\n";
  for (const auto& verdict : verdicts) {
    out += fmt::format(
        "<tr data-branch=\"{}\"><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td></tr>\n",
        escape(verdict.branch), escape(verdict.branch), escape(history::short_sha(verdict.commit)),
        escape(verdict.name), verdict.machine_class.empty() ? "—" : escape(verdict.machine_class),
        verdict.verdict.empty() ? "not judged" : escape(verdict.verdict), escape(verdict.recorded_at));
  }
  out += "</table>\n</section>\n";
}

}  // namespace

std::string render_history_html(const std::vector<history::Series>& series, const std::string& source_path,
                                const std::vector<history::BranchVerdict>& branch_verdicts,
                                const std::vector<std::optional<history::SeriesTests>>& slowest_tests) {
  std::string body = fmt::format("<p>history: <code>{}</code></p>\n", escape(source_path));
  if (series.empty()) body += "<p class=\"unavailable\">The history holds no results.</p>\n";
  for (std::size_t index = 0; index < series.size(); ++index) {
    series_section(body, series[index]);
    if (index < slowest_tests.size() && slowest_tests[index]) slowest_tests_section(body, *slowest_tests[index]);
  }
  branch_verdicts_section(body, branch_verdicts);
  return markup::html_page("Compile-time history", kHistoryStyle, body);
}

}  // namespace wcp::render
