#pragma once
// Every result the tool produces can be written in several formats; this is the one interface
// for choosing. Each (result kind, format) pair lives in its own file (e.g. judgement_text.cpp,
// judgement_json.cpp); write() dispatches, so a new format is one new file and one case.
// Renderers never compute: every number they show is already in the result.
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "history/branch_verdicts.h"
#include "history/series_tests.h"

namespace wcp {
struct Report;
struct LeverLedger;
namespace analysis {
struct Diagnosis;
}
namespace verdict {
struct Judgement;
}
namespace budget {
struct CheckResult;
}
namespace results {
struct ResultsReport;
}
namespace history {
struct Series;
}
namespace bisect {
struct BisectResult;
}
}  // namespace wcp

namespace wcp::render {

enum class Format { text, json, markdown, html };

// `history show`'s result: the series, and the history file they were read from (the page names it).
struct HistoryView {
  const std::vector<history::Series>& series;
  std::string source_path;
  // The latest verdict per branch (html only; history/branch_verdicts.h); empty when none.
  std::vector<history::BranchVerdict> branch_verdicts = {};
  // Per series, the slowest tests of its newest run (html only; history/series_tests.h).
  std::vector<std::optional<history::SeriesTests>> slowest_tests = {};
};
std::string_view to_string(Format format);

// Throws std::invalid_argument for a format that kind of result has no writer for (a bug:
// the CLI only offers the formats that exist).
void write(const Report& report, Format format, std::ostream& out);  // json; its text needs a ReportView
struct ReportView;
void write(const ReportView& view, Format format, std::ostream& out);  // the report with the tables its text shows
void write(const analysis::Diagnosis& diagnosis, Format format, std::ostream& out);
void write(const verdict::Judgement& judgement, Format format, std::ostream& out);
void write(const budget::CheckResult& result, Format format, std::ostream& out);
void write(const results::ResultsReport& results, Format format, std::ostream& out);  // text is the Markdown
void write(const HistoryView& history, Format format, std::ostream& out);
void write(const bisect::BisectResult& result, Format format, std::ostream& out);

// `levers`'s measured ledger; text is the one-screen answer and table (--verbose: a LeverLedgerView).
struct LeverLedgerView {
  const LeverLedger& ledger;
  bool verbose = false;
};
void write(const LeverLedger& ledger, Format format, std::ostream& out);
void write(const LeverLedgerView& view, Format format, std::ostream& out);

}  // namespace wcp::render
