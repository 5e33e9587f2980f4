#pragma once
// The values of the results report as the Markdown and HTML writers both print them.
#include <optional>
#include <string>

#include "stats/summary.h"
#include "results/results_report.h"
#include "verdict/judge.h"

namespace wcp::render {

std::string summary_cell(const std::optional<Summary>& summary);  // "3632.7 ms ± 227.8 (n=2)" or "unavailable"
std::string change_cell(const verdict::ClockComparison& clock);  // "-227.9 ms (-6.3%)"
std::string band_cell(const verdict::ClockComparison& clock);    // "±455.7 ms" or "—"
std::string ms_cell(const std::optional<double>& ms);            // "1234.5" or "—"
std::string residual_sentence(const results::Residual& residual);

}  // namespace wcp::render
