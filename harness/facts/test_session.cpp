#include "facts/test_session.h"

#include <algorithm>

namespace wcp {

TestSession::TestSession(const Report& report) {
  for (const auto& event : report.module_events) {
    if (!event.detail || !event.detail->test || event.detail->test->id.empty()) continue;
    const std::string& id = event.detail->test->id;
    test_ids_.insert(id);
    if (const auto separator = id.find("::"); separator != std::string::npos) {
      std::string file = id.substr(0, separator);
      while (file.starts_with("../")) file.erase(0, 3);  // outside the rootdir: match the rest
      pytest_files_.insert(std::move(file));
    }
  }
}

bool TestSession::defines(std::string_view file, std::string_view python_module) const {
  if (!file.empty()) {
    const bool pytest_file = std::any_of(pytest_files_.begin(), pytest_files_.end(), [&](const std::string& test) {
      return file == test || file.ends_with("/" + test);
    });
    if (pytest_file) return true;
  }
  // unittest ids: "package.test_module.TestCase.test_name".
  if (python_module.empty()) return false;
  return std::any_of(test_ids_.begin(), test_ids_.end(), [&](const std::string& id) {
    return id.find("::") == std::string::npos && id.size() > python_module.size() && id.starts_with(python_module) &&
           id[python_module.size()] == '.';
  });
}

}  // namespace wcp
