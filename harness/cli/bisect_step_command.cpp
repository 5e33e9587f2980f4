// `bisect-step BUDGET.yaml --state DIR [--only NAME]`: hidden; what `bisect` hands to
// `git bisect run`. Git runs it once per commit with the scratch worktree as the current
// directory; its exit code is git's verdict on the commit: 0 good, 1 bad, 125 skip, 128 abort.
// It records each visit in DIR/visits, and why it aborted in DIR/abort.txt, for `bisect`.
#include <filesystem>

#include "bisect/bisect_step.h"
#include "bisect/visit_log.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "errors.h"

namespace wcp::cli {
namespace {

struct BisectStepArguments {
  std::string budget_file;
  std::string only;
  std::string state;
};

int step(const BisectStepArguments& arguments, CliContext& context) {
  bisect::StepRequest request;
  request.self = std::filesystem::read_symlink("/proc/self/exe");
  request.worktree = std::filesystem::current_path();
  request.budget = arguments.budget_file;
  request.only = arguments.only;
  request.state = arguments.state;
  const auto result = bisect::run_step(request, context.interrupts);
  bisect::append_visit(bisect::visits_file(request.state),
                       {result.sha, result.decision.outcome, result.decision.reason});
  if (result.decision.outcome == bisect::StepOutcome::abort) bisect::write_abort(request.state, result);
  // One line per commit in git's output: `bisect` shows these as its progress.
  context.out << "bisect-step: " << result.sha.substr(0, 12) << " " << bisect::to_string(result.decision.outcome)
              << " (" << result.decision.reason << ")\n";
  context.out.flush();
  return bisect::git_exit_code(result.decision.outcome);
}

// Any exit code from 1 to 127 but 125 tells git "bad", so an error here must not reach main()'s
// mapping (RunError is 1): it aborts the bisection instead, with the reason for `bisect`.
int run_bisect_step(const BisectStepArguments& arguments, CliContext& context) {
  const auto abort_with = [&](int code, const std::string& why) {
    bisect::StepResult result;
    result.sha = "HEAD";
    result.decision = {bisect::StepOutcome::abort, why, code};
    bisect::write_abort(arguments.state, result);
    context.err << "bisect-step: error: " << why << "\n";
    return bisect::git_exit_code(bisect::StepOutcome::abort);
  };
  try {
    return step(arguments, context);
  } catch (const Interrupted&) {
    throw;  // main() exits 128+N: git aborts too
  } catch (const UsageError& error) {
    return abort_with(kUsage, error.what());
  } catch (const std::exception& error) {
    return abort_with(kInternal, error.what());
  }
}

}  // namespace

void add_bisect_step_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<BisectStepArguments>(
      root, context, "bisect-step", "One commit of `bisect` (run by git bisect run)", run_bisect_step);
  command->group("");  // hidden: only `bisect` runs it
  add_options(
      *command,
      {{"budget_file", &arguments->budget_file, "The budget file, relative to the worktree", {.required = true}},
       {"--only", &arguments->only, "Check only the command entry with this name"},
       {"--state", &arguments->state, "The bisection's state directory", {.required = true}}});
}

}  // namespace wcp::cli
