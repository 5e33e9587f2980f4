#pragma once
// One commit of a bisection: run `check` on the budget file as it is at the commit checked out
// in the worktree, and decide good / bad / skip / abort from its JSON (bisect_outcome.h).
// `bisect-step` runs this once per commit under `git bisect run`; `bisect` runs it itself for
// a commit git did not visit (the first bad commit's parent).
#include <filesystem>
#include <string>

#include "bisect/bisect_outcome.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::bisect {

struct StepRequest {
  std::filesystem::path self;      // this executable, which runs `check`
  std::filesystem::path worktree;  // the checkout to test (check runs with this as its cwd)
  std::filesystem::path budget;    // relative to the worktree
  std::string only;                // check --only, when set
  std::filesystem::path state;     // where each commit's check JSON and reports go
};

struct StepResult {
  std::string sha;
  StepDecision decision;
  std::string check_output_tail;  // check's last lines, for an abort's explanation
};

// The check's JSON goes to STATE/SHA.check.json and its reports to STATE/SHA/NAME.json.
// Throws Interrupted on SIGINT/SIGTERM (check stopped first).
StepResult run_step(const StepRequest& request, InterruptWatch& interrupts);

// STATE/abort.txt: the exit code `bisect` passes on, on its first line; then why.
std::filesystem::path abort_file(const std::filesystem::path& state);
void write_abort(const std::filesystem::path& state, const StepResult& result);

std::filesystem::path reports_dir(const std::filesystem::path& state, const std::string& sha);
std::filesystem::path visits_file(const std::filesystem::path& state);

}  // namespace wcp::bisect
