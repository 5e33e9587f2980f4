#include "analysis/deadlines.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/diagnose_support.h"
#include "facts/ownership.h"

namespace wcp::analysis {
namespace {

bool wanted(const std::vector<std::string>& modules, const std::string& name) {
  return modules.empty() || std::find(modules.begin(), modules.end(), name) != modules.end();
}

// Without a creation record (older reports, module="unique" modules renamed after hashing): the
// first kernel definition the module's load snapshots name.
std::optional<SettingDeadline> from_kernel_snapshots(const Report& report, const std::vector<std::string>& modules,
                                                     const CodeOwnership& ownership) {
  for (const auto& event : report.module_events) {
    if (!wanted(modules, event.name) || !event.detail || event.detail->kernels.empty()) continue;
    const auto first = std::min_element(
        event.detail->kernels.begin(), event.detail->kernels.end(),
        [](const KernelInfo& a, const KernelInfo& b) { return std::tie(a.file, a.line) < std::tie(b.file, b.line); });
    if (first->file.empty()) continue;
    return SettingDeadline{SettingDeadline::Kind::kernel_definition,
                           {first->file, first->line, ""},
                           event.name,
                           ownership.owner_of_file(first->file) == Owner::user,
                           {},
                           {}};
  }
  return std::nullopt;
}

// The entry script the modules' creations name, when it is not the user's (an installed test
// runner's `__main__`, a console-script stub): a global setting then has no line of the user's
// at the entry point.
std::optional<SourceLocation> runner_entry(const Report& report, const CodeOwnership& ownership) {
  if (!report.option_record) return std::nullopt;
  for (const auto& created : report.option_record->modules_created) {
    if (created.entry_site && ownership.owner_of_file(created.entry_site->file) != Owner::user)
      return created.entry_site;
  }
  return std::nullopt;
}

std::optional<SettingDeadline> deadline_in_program(const Report& report, const std::vector<std::string>& modules,
                                                   const CodeOwnership& ownership) {
  if (report.option_record) {
    // modules_created is in time order: the first creation with an entry-script line is the
    // deadline; a creation without one (outside the main script's stack) still bounds it by
    // its kernel's line.
    for (const auto& created : report.option_record->modules_created) {
      if (!wanted(modules, created.name)) continue;
      if (modules.empty() && (!created.site || ownership.owner_of_file(created.site->file) != Owner::user)) continue;
      if (created.entry_site && ownership.owner_of_file(created.entry_site->file) == Owner::user) {
        return SettingDeadline{
            SettingDeadline::Kind::entry_script_line, *created.entry_site, created.name, true, {}, {}};
      }
      if (created.site) {
        return SettingDeadline{SettingDeadline::Kind::kernel_definition,
                               *created.site,
                               created.name,
                               ownership.owner_of_file(created.site->file) == Owner::user,
                               {},
                               {}};
      }
    }
  }
  return from_kernel_snapshots(report, modules, ownership);
}

// Under a test runner, the user's files that come first: the test file whose test first loaded
// one of the modules and, for a pytest id ("tests/test_x.py::test_y", relative to the rootdir),
// the rootdir's conftest.py, which pytest imports before any test module. The test file is the
// stack's frame in the file the id names (a helper module of the suite further out is not it);
// for a unittest id, the user's outermost frame. An id outside the rootdir ("../x.py::t")
// names no rootdir.
void find_session_files(const Report& report, const std::vector<std::string>& modules, const CodeOwnership& ownership,
                        SettingDeadline& deadline) {
  for (const auto& event : report.module_events) {
    if (!wanted(modules, event.name) || !event.detail || !event.detail->test || event.detail->test->id.empty())
      continue;
    const std::string& id = event.detail->test->id;
    const auto separator = id.find("::");
    if (separator == std::string::npos) {
      const auto user_frame = ownership.trigger_of(*event.detail).user_outermost;
      if (!user_frame) continue;
      deadline.test_file = user_frame->file;
      return;
    }
    std::string relative = id.substr(0, separator);
    const bool outside_rootdir = relative.starts_with("../");
    while (relative.starts_with("../")) relative.erase(0, 3);
    const auto frame = std::find_if(event.detail->stack.begin(), event.detail->stack.end(), [&](const auto& f) {
      return f.file.size() > relative.size() && f.file.ends_with("/" + relative);
    });
    if (frame == event.detail->stack.end()) continue;
    deadline.test_file = frame->file;
    if (!outside_rootdir) {
      deadline.session_setup = frame->file.substr(0, frame->file.size() - relative.size()) + "conftest.py";
    }
    return;
  }
}

}  // namespace

std::optional<SettingDeadline> setting_deadline(const Report& report, const std::vector<std::string>& modules) {
  const CodeOwnership ownership(report);
  auto deadline = deadline_in_program(report, modules, ownership);
  if (deadline && runner_entry(report, ownership)) {
    deadline->kind = SettingDeadline::Kind::runner_session;
    find_session_files(report, modules, ownership, *deadline);
  }
  return deadline;
}

std::string config_deadline_advice(const SettingDeadline& deadline, const std::string& key, const std::string& value) {
  const std::string setting = fmt::format("wp.config.{} = {}", key, value);
  const std::string module_option = fmt::format(
      "wp.set_module_options({{\"{}\": {}}}) at the top of the Python module that defines {}'s kernels "
      "(a module option reaches the module whenever it is set before the module's first load)",
      key, value, deadline.module);
  switch (deadline.kind) {
    case SettingDeadline::Kind::entry_script_line:
      return fmt::format(
          "Set {} in {} before line {}, the entry script's first line that created a Warp module ({}); "
          "if `import warp` comes later in that file, import it there. Or {}.",
          setting, short_file(deadline.before.file), deadline.before.line, deadline.module, module_option);
    case SettingDeadline::Kind::kernel_definition:
      if (deadline.users_code) {
        return fmt::format(
            "Set {} before {}:{}, where module {}'s first kernel is defined (in the entry point, before "
            "the import that runs that line). Or {}.",
            setting, short_file(deadline.before.file), deadline.before.line, deadline.module, module_option);
      }
      return fmt::format(
          "No line of yours runs before module {} is created (at {}:{}): set {} before your program "
          "first imports it, or set the option on that module before its first load: "
          "wp.get_module(\"{}\").options[\"{}\"] = {}.",
          deadline.module, short_file(deadline.before.file), deadline.before.line, setting, deadline.module, key,
          value);
    case SettingDeadline::Kind::runner_session:
      if (deadline.in_test_file()) {
        return fmt::format(
            "The entry point is the test runner, and module {} is the test file's own: call "
            "wp.set_module_options({{\"{}\": {}}}) at the top of {}, which reaches that file's module only (a "
            "wp.config value would reach every module the test run builds).",
            deadline.module, key, value, short_file(*deadline.test_file));
      }
      if (deadline.session_setup) {
        return fmt::format(
            "The entry point is the test runner, not a file of yours: set {} at the top of {} (the suite's rootdir; "
            "create it if there is none), which pytest imports before any test module, and only if no test of the "
            "suite differentiates these modules: this run saw {} of it. Never set it in a file the suite imports as "
            "a library. Or {}.",
            setting, *deadline.session_setup, deadline.test_file ? short_file(*deadline.test_file) : "one part",
            module_option);
      }
      if (deadline.test_file) {
        return fmt::format(
            "The entry point is the test runner, not a file of yours: set {} at the top of {}, right after `import "
            "warp` and before its other imports (the test module this run started from), and only if no other test "
            "differentiates these modules. Or {}.",
            setting, short_file(*deadline.test_file), module_option);
      }
      return fmt::format(
          "The entry point is a test runner or another installed program, not a file of yours: set {} once where "
          "its session starts (for a pytest suite, at the top of the conftest.py in its rootdir), never in a file "
          "it imports as a library. Or {}.",
          setting, module_option);
  }
  return setting;
}

}  // namespace wcp::analysis
