#pragma once
// Where in this program a setting must go to reach a module: advice that says "before X" names
// the line of this run that is early enough, from the program's own timeline. A warp.config
// value such as enable_backward is copied by a module when it is created, i.e. when its first
// kernel is defined; in an entry script that imports its kernel package before `import warp`,
// "right after import warp" is already too late.
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace wcp::analysis {

struct SettingDeadline {
  enum class Kind {
    entry_script_line,  // the entry script's first line that created one of the modules
    kernel_definition,  // no entry script line on record: the module's first kernel definition
    // The entry point is a program the user does not own (a test runner, an installed tool):
    // a global setting belongs where that program's session starts (a test suite's session
    // setup), never in a file it imports as a library; `before` is the module's first kernel.
    runner_session,
  };
  Kind kind = Kind::entry_script_line;
  SourceLocation before;   // set it before this line runs
  std::string module;      // the module created there
  bool users_code = true;  // `before` is in code the user can edit
  // runner_session only, found from the run: where this user's code can set it first.
  std::optional<std::string> session_setup;  // under pytest, the rootdir's conftest.py (it may not exist yet)
  std::optional<std::string> test_file;      // the user's test file whose test first loaded the module

  // The module is the test file's own (its first kernel is defined there): a module option set in
  // that file reaches it and nothing else, where a global setting would reach the whole run.
  bool in_test_file() const { return test_file && before.file == *test_file; }
  bool operator==(const SettingDeadline&) const = default;
};

// The earliest creation among `modules` in this run (all application modules when empty);
// nullopt when the report has no record of their creation or kernels.
std::optional<SettingDeadline> setting_deadline(const Report& report, const std::vector<std::string>& modules);

// "`wp.config.enable_backward = False` before <file>:<line> ..." for a warp.config setting, in
// one sentence that names the line and, where no user line is early enough, the module option
// that reaches the module instead.
std::string config_deadline_advice(const SettingDeadline& deadline, const std::string& key, const std::string& value);
// The same advice in one short line is a FixAction of kind set_before_deadline, phrased by
// render/finding_text.h.

}  // namespace wcp::analysis
