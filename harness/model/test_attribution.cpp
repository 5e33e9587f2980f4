#include "model/test_attribution.h"

namespace wcp {

std::string test_row_name(const std::string& id, const std::optional<TestPhase>& suite_phase) {
  if (!id.empty()) return id;
  if (suite_phase) return "(" + to_string(*suite_phase) + ")";
  return "(no test recorded)";
}

std::string rebuilt_by_text(const TestContext& test) {
  const std::string worker = test.worker.empty() ? "" : " on " + test.worker;
  if (test.id.empty()) return "rebuilt during " + to_string(test.phase) + worker;
  return "rebuilt by " + test.id + " (" + to_string(test.phase) + ")" + worker;
}

}  // namespace wcp
