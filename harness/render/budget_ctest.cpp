#include "render/budget_ctest.h"

#include <fmt/format.h>

#include <ostream>

#include "render/budget_text.h"
#include "render/identity_changes_text.h"
#include "render/svg_charts.h"

namespace wcp::render {

void render_ctest_measurements(const budget::CommandResult& result, std::ostream& out) {
  for (const auto& outcome : result.outcomes) {
    if (!outcome.measured) continue;
    // Budget keys are [a-z_] YAML keys: nothing in a name needs escaping.
    out << fmt::format("<CTestMeasurement type=\"numeric/double\" name=\"{}\">{:.6g}</CTestMeasurement>\n",
                       outcome.budget, *outcome.measured);
    if (outcome.limit) {
      out << fmt::format("<CTestMeasurement type=\"numeric/double\" name=\"{}.limit\">{:.6g}</CTestMeasurement>\n",
                         outcome.budget, *outcome.limit);
    }
    // A failure names its worst offender (the module and the test that first built it, or the
    // test over its budget), so the dashboard says what to look at without the log.
    if (outcome.verdict == budget::Verdict::fail && !outcome.offenders.empty()) {
      out << fmt::format("<CTestMeasurement type=\"text/string\" name=\"{}.offender\">{}</CTestMeasurement>\n",
                         outcome.budget, escape_xml(offender_headline(outcome.offenders.front())));
    }
  }
  // How many runs decided it, and how: CDash charts the runs, the text says why it stopped.
  if (const auto& sampling = result.sampling) {
    out << fmt::format("<CTestMeasurement type=\"numeric/double\" name=\"runs\">{}</CTestMeasurement>\n",
                       sampling->runs);
    out << fmt::format("<CTestMeasurement type=\"text/string\" name=\"decided\">{}</CTestMeasurement>\n",
                       escape_xml(sampling->summary));
  }
  // A failure's context: what moved since the baseline, as one line CDash shows beside the test.
  if (result.failed() && result.since_baseline) {
    out << fmt::format("<CTestMeasurement type=\"text/string\" name=\"since_baseline\">{}</CTestMeasurement>\n",
                       escape_xml(identity_changes_brief(*result.since_baseline)));
  }
}

}  // namespace wcp::render
