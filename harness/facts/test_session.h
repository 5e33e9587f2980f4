#pragma once
// Whether this run's builds happened inside a test suite's tests, and which files are its tests.
// One run of a suite (often one test file) is one part of the code it tests: what it did not
// launch says nothing of that code's other users, so advice to restructure that code does not
// follow from it (issue 40), while the test files themselves are seen whole.
#include <set>
#include <string>
#include <string_view>

#include "model/report.h"

namespace wcp {

class TestSession {
 public:
  explicit TestSession(const Report& report);

  // Some load ran inside a test (not only in collection or a session phase).
  bool present() const { return !test_ids_.empty(); }
  // The kernel is defined in one of the session's test files: a pytest id's file (relative to
  // the rootdir, so matched as the path's tail) or a unittest id's module.
  bool defines(std::string_view file, std::string_view python_module) const;

 private:
  std::set<std::string> test_ids_;
  std::set<std::string> pytest_files_;  // "tests/test_x.py", as the ids name them
};

}  // namespace wcp
