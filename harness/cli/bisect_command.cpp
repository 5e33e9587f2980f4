// `bisect GOOD BAD BUDGET.yaml [--only NAME] [--repo DIR] [--json OUT] [--quiet]`: which commit
// first failed the budget? Drives `git bisect run` in a scratch worktree (never the user's
// checkout), with `check` as the test at every commit (bisect-step), then shows what changed in
// Warp's structure between the first bad commit and its parent. The orchestration is
// bisect/bisection.h, its text and JSON render/bisect_*.cpp; here: arguments, wiring, exit codes.
// Exit codes: 0 first bad commit named; 1 none could be named (only skipped commits left, BAD
// is not bad, GOOD is not good); 2 usage; 3 internal; check's own 2, 3 or 77 when it aborted
// the bisection.

#include "bisect/bisection.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "io/file_io.h"
#include "render/format.h"

namespace wcp::cli {
namespace {

struct BisectArguments {
  std::string good;
  std::string bad;
  std::string budget_file;
  std::string only;
  std::string repo = ".";
  std::string json_path;
  bool quiet = false;
};

// Why the bisection stopped: abort.txt's first line of reason, then the rest as it is.
int report_abort(const bisect::BisectResult& result, CliContext& context) {
  const std::string& text = result.abort_reason;
  const auto first_break = text.find('\n');
  context.err << "warp-compile-probe: error: the bisection was aborted " << text.substr(0, first_break) << "\n";
  if (first_break != std::string::npos) context.err << text.substr(first_break + 1);
  return result.abort_exit_code.value_or(kInternal);
}

int run_bisect(const BisectArguments& arguments, CliContext& context) {
  const bisect::BisectRequest request{
      bisect::validate_bisect_setup(arguments.repo, arguments.good, arguments.bad, arguments.budget_file),
      arguments.good, arguments.bad, arguments.only, arguments.quiet};
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  const auto result = bisect::run_bisection(request, context.err, context.interrupts);
  if (result.ending == bisect::BisectEnding::aborted) return report_abort(result, context);
  render::write(result, render::Format::text, context.out);
  write_outputs(result, {{arguments.json_path, render::Format::json}});
  return result.ending == bisect::BisectEnding::first_bad ? kOk : kFailed;
}

}  // namespace

void add_bisect_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<BisectArguments>(
      root, context, "bisect",
      "Find the first commit that fails a budget (git bisect run with check, in a scratch worktree)", run_bisect);
  add_options(
      *command,
      {{"good", &arguments->good, "A commit that passes the budget", {.required = true}},
       {"bad", &arguments->bad, "A later commit that fails it", {.required = true}},
       {"budget_file",
        &arguments->budget_file,
        "The budget file, inside the repository (relative: from the current directory, else from the repository's "
        "top level)",
        {.required = true}},
       {"--only", &arguments->only, "Check only the command entry with this name"},
       {"--repo",
        &arguments->repo,
        "The repository (default: the one the current directory is in)",
        {.show_default = true}},
       {"--json", &arguments->json_path, "Also write the result as JSON to this path"},
       {"--quiet", &arguments->quiet, "No progress on stderr"}});
}

}  // namespace wcp::cli
