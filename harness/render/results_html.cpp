#include "render/results_html.h"

#include <fmt/format.h>

#include "render/results_cells.h"
#include "render/svg_charts.h"

namespace wcp::render {
namespace {

// Small and readable in print; every colour is also told by position or text.
constexpr const char* kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 820px; color: #1d1d1f; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; }
td.num { text-align: right; } code { font-size: .95em; }
.verdict { font-size: 1.15em; padding: .5em .8em; border-left: 5px solid #888; background: #f5f5f7; }
.verdict.IMPROVED { border-color: #2a7d2e; } .verdict.REGRESSION, .verdict.INVALID { border-color: #b3261e; }
.note { color: #555; } .unavailable { color: #777; font-style: italic; }
svg text { font: 11px system-ui, sans-serif; fill: #1d1d1f; }
svg .bar.before, svg .legend.before { fill: #9aa5b1; } svg .bar.after, svg .legend.after { fill: #2f6fdd; }
svg .build { fill: #2f6fdd; stroke: #fff; } svg .build.pch { fill: #e09f3e; }
svg .build-label { fill: #fff; } svg .axis { stroke: #999; }
)";

std::string escape(const std::string& text) { return escape_xml(text); }

void mechanism_section(std::string& out, const char* heading, const std::vector<results::MechanismLine>& lines) {
  out += fmt::format("<h3>{}</h3>\n<ul>\n", heading);
  if (lines.empty()) out += "<li>none</li>\n";
  for (const auto& line : lines) {
    out += fmt::format("<li><strong>{}</strong>{}</li>\n", escape(std::string(info(line.mechanism).title)),
                       line.detail.empty() ? "" : ": " + escape(line.detail));
  }
  out += "</ul>\n";
}

}  // namespace

std::string render_results_html(const results::ResultsReport& results) {
  const auto& judgement = results.judgement;
  const std::string verdict_word(verdict::to_string(judgement.verdict));
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>Compile-time results</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  out += "<h1>Compile-time results</h1>\n";
  out += fmt::format("<p>before: <code>{}</code><br>after: <code>{}</code></p>\n", escape(results.baseline_command),
                     escape(results.candidate_command));
  out += fmt::format("<p class=\"verdict {}\"><strong>Verdict: {}</strong> — {}</p>\n", verdict_word, verdict_word,
                     escape(judgement.reason));
  for (const auto& note : judgement.notes) out += fmt::format("<p class=\"note\">{}</p>\n", escape(note));
  out += "<table>\n<tr><th>clock</th><th>before (median ± MAD)</th><th>after (median ± MAD)</th><th>change</th>"
         "<th>noise band</th><th>judged</th></tr>\n";
  for (const auto* clock : {&judgement.module_work, &judgement.compile_elapsed}) {
    out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                       verdict::to_string(clock->clock), summary_cell(clock->baseline), summary_cell(clock->candidate),
                       change_cell(*clock), band_cell(*clock), verdict::to_string(clock->direction));
  }
  out += "</table>\n";
  out += fmt::format("<p>Workload: {}.</p>\n", escape(verdict::to_string(judgement.workload.status)));

  out += "<h2>What compiling still costs</h2>\n<p>" + escape(residual_sentence(results)) + "</p>\n";
  out += timeline_svg(results.baseline_timeline, "Before") + "\n";
  out += timeline_svg(results.candidate_timeline, "After") + "\n";

  out += "<h2>Build time per compiled identity</h2>\n" + identity_bars_svg(results.identities) + "\n";

  out += "<h2>Mechanisms</h2>\n";
  mechanism_section(out, "Fixed by this change", results.fixed);
  mechanism_section(out, "Still present", results.remaining);
  mechanism_section(out, "Checked and ruled out", results.ruled_out);
  mechanism_section(out, "Not reached by this measurement", results.not_reached);

  out += "<h2>Options measured and not taken</h2>\n";
  if (results.ledger.declined.empty()) {
    out += "<p class=\"unavailable\">No ledger was given.</p>\n";
  } else {
    out += "<table>\n<tr><th>Option</th><th>Measured</th><th>Why not taken</th><th>To take it</th></tr>\n";
    for (const auto& entry : results.ledger.declined) {
      out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", escape(entry.option),
                         escape(entry.measured), escape(entry.why_not),
                         entry.to_take_it.empty() ? "—" : escape(entry.to_take_it));
    }
    out += "</table>\n";
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace wcp::render
