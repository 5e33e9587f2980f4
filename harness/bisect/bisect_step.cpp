#include "bisect/bisect_step.h"

#include <fmt/format.h>

#include <chrono>
#include <sstream>
#include <system_error>

#include "bisect/git.h"
#include "errors.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "run/process_runner.h"

namespace wcp::bisect {
namespace {

// The last `count` non-empty lines of some output.
std::string last_lines(const std::string& text, int count) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  }
  std::string tail;
  for (auto it = lines.size() > static_cast<std::size_t>(count) ? lines.end() - count : lines.begin();
       it != lines.end(); ++it) {
    tail += *it + "\n";
  }
  return tail;
}

}  // namespace

std::filesystem::path abort_file(const std::filesystem::path& state) {
  return state / "abort.txt";
}
std::filesystem::path reports_dir(const std::filesystem::path& state, const std::string& sha) {
  return state / sha;
}
std::filesystem::path visits_file(const std::filesystem::path& state) {
  return state / "visits";
}

StepResult run_step(const StepRequest& request, InterruptWatch& interrupts) {
  StepResult result;
  const auto head = run_git(request.worktree, {"rev-parse", "HEAD"});
  if (!head.ok()) throw RunError("git rev-parse HEAD in " + request.worktree.string() + ": " + head.error_line());
  result.sha = head.first_line();

  std::error_code ignored;
  if (!std::filesystem::is_regular_file(request.worktree / request.budget, ignored)) {
    result.decision = {StepOutcome::skip, "budget file missing", 0};
    return result;
  }

  const auto json_path = request.state / (result.sha + ".check.json");
  std::filesystem::remove(json_path, ignored);  // a JSON left from an earlier visit says nothing now
  RunRequest run;
  run.argv = {request.self.string(), "check", request.budget.string()};
  if (!request.only.empty()) run.argv.insert(run.argv.end(), {"--only", request.only});
  run.argv.insert(run.argv.end(), {"--quiet", "--json", json_path.string(), "--report-dir",
                                   reports_dir(request.state, result.sha).string()});
  run.environment = current_environment();
  run.cwd = request.worktree;
  // check enforces each command's own timeout; this only bounds a check that hangs itself.
  run.timeout = std::chrono::hours(24);
  run.kill_grace = std::chrono::seconds(10);
  const RunOutcome outcome = run_process(
      run, [](OutputStream, std::string_view) {}, interrupts);
  result.check_output_tail = last_lines(outcome.output_tail, 8);

  std::optional<std::string> json;
  if (std::filesystem::is_regular_file(json_path, ignored)) json = read_text_file(json_path, "check's JSON result");
  result.decision = decide_step(outcome.exit_code, json);
  return result;
}

void write_abort(const std::filesystem::path& state, const StepResult& result) {
  std::string text =
      fmt::format("{}\nat {}: {}\n", result.decision.abort_exit_code, result.sha, result.decision.reason);
  if (!result.check_output_tail.empty()) text += "check's last lines:\n" + result.check_output_tail;
  write_file_atomically(abort_file(state), text);
}

}  // namespace wcp::bisect
