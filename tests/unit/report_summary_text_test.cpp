// The summary's unavailable clocks say why in words that hold for the run (issue 40's field
// review: "no successful warm run" was printed when the warm run succeeded and only its wall was
// not below the cold one).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "report_fixtures.h"

#include <sstream>

#include "facts/clock_facts.h"
#include "facts/rebuilds.h"
#include "render/report_summary_text.h"
#include "render/report_text.h"

namespace wcp::render {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string summary(const Report& report) {
  std::ostringstream out;
  render_report_summary_text(ReportView{report, compiled_identities(report), rebuilt_modules(report), std::nullopt,
                                        clock_facts(report), rank_cuda_build(report)},
                             out);
  return out.str();
}

TEST(ReportSummaryText, AWarmRunNotFasterThanTheColdOneIsNotAMissingWarmRun) {
  Report report = testing::clean_report();
  report.warm_wall_ms = summarize({9000.0});  // succeeded, slower than the cold run
  report.compile_elapsed_ms.reset();
  const std::string text = summary(report);
  EXPECT_THAT(text, HasSubstr("no warm wall below its cold wall"));
  EXPECT_THAT(text, Not(HasSubstr("no successful warm run")));
}

TEST(ReportSummaryText, NoWarmRunAtAllSaysSo) {
  Report report = testing::clean_report();
  report.warm_wall_ms.reset();
  report.warm_module_ms.reset();
  report.compile_elapsed_ms.reset();
  EXPECT_THAT(summary(report), HasSubstr("no successful warm run"));
}

}  // namespace
}  // namespace wcp::render
