#include "render/budget_ctest.h"

#include <fmt/format.h>

#include <ostream>

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
  }
}

}  // namespace wcp::render
