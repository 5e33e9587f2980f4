#include "bisect/bisection.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

#include "bisect/bisect_run_output.h"
#include "bisect/bisect_step.h"
#include "bisect/git.h"
#include "bisect/scratch_worktree.h"
#include "bisect/visit_log.h"
#include "codec/report_json.h"
#include "errors.h"
#include "io/environment.h"
#include "run/process_runner.h"
#include "run/scratch_dir.h"

namespace wcp::bisect {
namespace {

namespace fs = std::filesystem;

// `abc1234 subject`, for the reader.
std::string describe(const fs::path& top, const std::string& sha) {
  const auto line = run_git(top, {"log", "-1", "--format=%h %s", sha});
  return line.ok() ? line.first_line() : sha.substr(0, 12);
}

const Visit* find_visit(const std::vector<Visit>& visits, const std::string& sha) {
  const auto found = std::find_if(visits.rbegin(), visits.rend(), [&sha](const Visit& v) { return v.sha == sha; });
  return found == visits.rend() ? nullptr : &*found;
}

// Each entry measured at both commits, judged parent -> first bad; only the structure is shown.
std::vector<EntryStructure> structure_between(const fs::path& state, const std::string& parent,
                                              const std::string& bad) {
  std::vector<EntryStructure> structures;
  std::error_code ignored;
  std::vector<fs::path> reports;
  for (const auto& file : fs::directory_iterator(reports_dir(state, bad), ignored)) reports.push_back(file.path());
  std::sort(reports.begin(), reports.end());
  for (const auto& report : reports) {
    const auto parent_report = reports_dir(state, parent) / report.filename();
    if (report.extension() != ".json" || !fs::is_regular_file(parent_report, ignored)) continue;
    structures.push_back(
        {report.stem().string(), verdict::judge(load_report(parent_report.string()), load_report(report.string()))});
  }
  return structures;
}

class Bisection {
 public:
  Bisection(const BisectRequest& request, std::ostream& progress, InterruptWatch& interrupts)
      : request_(request), setup_(request.setup), progress_(progress), interrupts_(interrupts) {
    result_.good = setup_.good;
    result_.bad = setup_.bad;
    result_.budget = setup_.budget.generic_string();
  }

  BisectResult run() {
    const ScratchDir scratch("warp-compile-probe-bisect-");
    state_ = scratch.make_subdir("state");
    temp_ = scratch.make_subdir("tmp");
    const ScratchWorktree worktree(setup_.top, scratch.path() / "worktree", setup_.bad);
    worktree_ = worktree.path();
    const auto started = run_git(worktree_, {"bisect", "start", setup_.bad, setup_.good});
    if (!started.ok()) throw RunError("git bisect start failed: " + started.error_line());

    const auto output = run_git_bisect();
    if (fs::exists(abort_file(state_))) return aborted();
    visits_ = read_visits(visits_file(state_));
    const auto ended = parse_bisect_run_output(output);
    if (ended.end == BisectEnd::only_skipped) return only_skipped(ended.candidates);
    if (ended.end != BisectEnd::first_bad) {
      std::istringstream lines(output);
      std::string line, last;
      while (std::getline(lines, line)) {
        if (!line.empty()) last = line;
      }
      throw RunError("git bisect run stopped without naming a first bad commit: " + last);
    }
    const auto confirmed = run_git(worktree_, {"rev-parse", "refs/bisect/bad"});
    const std::string first_bad = confirmed.ok() ? confirmed.first_line() : ended.first_bad;
    // The bisection's own state is done with; what follows checks commits out by hand.
    run_git(worktree_, {"bisect", "reset"});
    return first_bad_found(first_bad);
  }

 private:
  // git's output is kept whole to read how it ended; its progress lines are shown as they come.
  std::string run_git_bisect() {
    RunRequest run;
    run.argv = {
        "git", "bisect", "run", fs::read_symlink("/proc/self/exe").string(), "bisect-step", setup_.budget.string()};
    if (!request_.only.empty()) run.argv.insert(run.argv.end(), {"--only", request_.only});
    run.argv.insert(run.argv.end(), {"--state", state_.string()});
    run.environment = current_environment();
    // On Ctrl-C git dies at once and the rest of its process group is killed before a check can
    // remove its own scratch files; with TMPDIR inside ours, they go when ours does.
    run.environment["TMPDIR"] = temp_.string();
    run.cwd = worktree_;
    run.timeout = std::chrono::hours(72);       // each check enforces its commands' own timeouts
    run.kill_grace = std::chrono::seconds(15);  // time for bisect-step to stop its check
    std::string output;
    std::array<std::string, 2> pending_of;  // a partial line per stream
    const auto sink = [&](OutputStream stream, std::string_view bytes) {
      output.append(bytes);
      if (request_.quiet) return;
      auto& pending = pending_of[stream == OutputStream::out ? 0 : 1];
      pending.append(bytes);
      for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
        const auto line = pending.substr(0, end);
        if (line.rfind("Bisecting:", 0) == 0 || line.rfind("bisect-step:", 0) == 0) progress_ << line << "\n";
        pending.erase(0, end + 1);
      }
    };
    if (!request_.quiet)
      progress_ << "bisecting " << request_.good_spec << ".." << request_.bad_spec << " on "
                << setup_.budget.generic_string() << " in " << worktree_.string() << "\n";
    run_process(run, sink, interrupts_);
    return output;
  }

  StepResult check_commit(const std::string& sha) {
    const auto checkout = run_git(worktree_, {"checkout", "--quiet", "--detach", sha});
    if (!checkout.ok())
      throw RunError("git checkout " + sha + " in the scratch worktree failed: " + checkout.error_line());
    if (!request_.quiet) progress_ << "checking " << describe(setup_.top, sha) << " (not visited by the bisection)\n";
    StepRequest step{fs::read_symlink("/proc/self/exe"), worktree_, setup_.budget, request_.only, state_};
    auto result = run_step(step, interrupts_);
    checked_after_.push_back({result.sha, result.decision.outcome, result.decision.reason});
    if (result.decision.outcome == StepOutcome::abort) write_abort(state_, result);
    return result;
  }

  // Why the bisection stopped, from abort.txt: the exit code on its first line, then the reason.
  BisectResult aborted() {
    std::ifstream in(abort_file(state_));
    std::string code_line;
    std::getline(in, code_line);
    std::stringstream rest;
    rest << in.rdbuf();
    BisectResult result;
    result.ending = BisectEnding::aborted;
    try {
      result.abort_exit_code = std::stoi(code_line);
    } catch (const std::exception&) {
    }
    result.abort_reason = rest.str();
    return result;
  }

  DescribedCommit described(const std::string& sha) const { return {sha, describe(setup_.top, sha)}; }

  BisectResult first_bad_found(const std::string& first_bad) {
    result_.first_bad = described(first_bad);
    const Visit* bad_visit = find_visit(visits_, first_bad);
    std::string why_bad = bad_visit ? bad_visit->reason : "";
    // git names BAD without testing it when every commit it tested was good: test it now.
    if (!bad_visit) {
      const auto result = check_commit(first_bad);
      if (result.decision.outcome == StepOutcome::abort) return aborted();
      if (result.decision.outcome != StepOutcome::bad) return bad_is_not_bad(result);
      why_bad = result.decision.reason;
    }
    const auto parent_line = run_git(setup_.top, {"rev-parse", first_bad + "^"});
    if (!parent_line.ok()) throw RunError("the first bad commit " + first_bad + " has no parent");
    const std::string parent = parent_line.first_line();
    std::error_code ignored;
    const Visit* parent_visit = find_visit(visits_, parent);
    std::string parent_state = parent_visit ? std::string(to_string(parent_visit->outcome)) : "good (GOOD)";
    if (!fs::is_directory(reports_dir(state_, parent), ignored)) {
      // Not visited (it is GOOD, which git takes on trust): measured now for the comparison.
      const auto result = check_commit(parent);
      if (result.decision.outcome == StepOutcome::abort) return aborted();
      if (result.decision.outcome == StepOutcome::bad) {
        return not_named(BisectEnding::good_is_not_good,
                         fmt::format("the parent {} of {} fails the budget too ({}): GOOD {} is not good",
                                     describe(setup_.top, parent), describe(setup_.top, first_bad),
                                     result.decision.reason, request_.good_spec));
      }
      parent_state = std::string(to_string(result.decision.outcome));
    }
    result_.ending = BisectEnding::first_bad;
    result_.reason = why_bad;
    result_.parent = described(parent);
    result_.parent_outcome = parent_state;
    collect_visits();
    result_.structure = structure_between(state_, parent, first_bad);
    return result_;
  }

  BisectResult only_skipped(const std::vector<std::string>& candidates) {
    // git lists BAD among the candidates without having tested it: a BAD that is not bad is
    // the likelier story, and the one to tell.
    if (!find_visit(visits_, setup_.bad) &&
        std::find(candidates.begin(), candidates.end(), setup_.bad) != candidates.end()) {
      run_git(worktree_, {"bisect", "reset"});
      const auto result = check_commit(setup_.bad);
      if (result.decision.outcome == StepOutcome::abort) return aborted();
      if (result.decision.outcome != StepOutcome::bad) return bad_is_not_bad(result);
    }
    std::string message =
        "No single first bad commit: only skipped commits are left to test; the first bad commit is one of:";
    for (const auto& sha : candidates) {
      const Visit* visit = find_visit(visits_, sha);
      message += fmt::format("\n  {}{}", describe(setup_.top, sha), visit ? " (skipped: " + visit->reason + ")" : "");
    }
    result_.candidates = candidates;
    return not_named(BisectEnding::only_skipped, message);
  }

  BisectResult bad_is_not_bad(const StepResult& result) {
    return not_named(BisectEnding::bad_is_not_bad,
                     fmt::format("BAD {} is not bad ({}: {})", describe(setup_.top, setup_.bad),
                                 to_string(result.decision.outcome), result.decision.reason));
  }

  BisectResult not_named(BisectEnding ending, const std::string& message) {
    result_.ending = ending;
    result_.reason = message;
    collect_visits();
    return result_;
  }

  void collect_visits() {
    for (const auto& visit : visits_) result_.visits.push_back({visit, describe(setup_.top, visit.sha), false});
    for (const auto& visit : checked_after_) result_.visits.push_back({visit, describe(setup_.top, visit.sha), true});
  }

  const BisectRequest& request_;
  const BisectSetup& setup_;
  std::ostream& progress_;
  InterruptWatch& interrupts_;
  fs::path state_;
  fs::path worktree_;
  fs::path temp_;
  std::vector<Visit> visits_;
  std::vector<Visit> checked_after_;
  BisectResult result_;
};

}  // namespace

BisectResult run_bisection(const BisectRequest& request, std::ostream& progress, InterruptWatch& interrupts) {
  return Bisection(request, progress, interrupts).run();
}

}  // namespace wcp::bisect
