#pragma once
// The human-readable measure report. Everything shown is computed before it gets here.
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "facts/clock_facts.h"
#include "facts/cuda_build_ranking.h"
#include "facts/rebuilds.h"
#include "facts/test_attribution.h"
#include "model/report.h"

namespace wcp::render {

struct ReportView {
  const Report& report;
  std::vector<CompiledIdentity> identities;
  std::vector<RebuiltModule> rebuilt;
  // "Slowest tests by compile": absent when the report has no `tests` (no test runner).
  std::optional<TestCostRanking> tests;
  ClockFacts clocks;  // facts/clock_facts.h
  // `--cuda-arch`: the CUDA build ranked per architecture; absent when none was asked for.
  std::optional<CudaBuildRanking> cuda = std::nullopt;
};

// How many tests "Slowest tests by compile" names.
inline constexpr std::size_t kSlowestTestsShown = 5;
// "Slowest tests by compile": the ranked tests, then the suite's phases with their shares.
void render_slowest_tests(const TestCostRanking& ranking, std::ostream& out);

// The full text (`measure --verbose`).
void render_report_text(const ReportView& view, std::ostream& out);
// The lines both texts open with: the tool, the command, the cwd, Warp and the samples.
void render_report_title(const Report& report, std::ostream& out);
// "    1234.5 ms ± 12.3 (median ± MAD of 3)", or "unavailable" and why: a clock as both texts show it.
std::string median_mad(const std::optional<Summary>& summary, std::string_view unavailable);

std::string format_command(const std::vector<std::string>& argv);

}  // namespace wcp::render
