#pragma once
// The compile-time history as one self-contained HTML page: per series (one command on one
// machine) a heading, its steps (or "no step"), the cold module work and identity charts
// (render/history_svg.h) and a table by commit. No scripts, fonts or anything fetched at view
// time; every number shown is already in the series (history/trend.h). Then, where results
// name their branch, a table of each branch's latest verdict (history/branch_verdicts.h). A
// series whose newest run ran tests also lists its slowest tests (history/series_tests.h).
#include <string>
#include <vector>

#include "history/branch_verdicts.h"
#include "history/series_tests.h"
#include "history/trend.h"

namespace wcp::render {

// `source_path`: the history store the series were read from, shown under the title.
// `slowest_tests`: one entry per series (or none at all).
std::string render_history_html(const std::vector<history::Series>& series, const std::string& source_path,
                                const std::vector<history::BranchVerdict>& branch_verdicts = {},
                                const std::vector<std::optional<history::SeriesTests>>& slowest_tests = {});

}  // namespace wcp::render
