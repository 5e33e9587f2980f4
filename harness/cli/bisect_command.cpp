// `bisect GOOD BAD BUDGET.yaml [--only NAME] [--repo DIR] [--json OUT] [--quiet]`: which commit
// first failed the budget? Drives `git bisect run` in a scratch worktree (never the user's
// checkout), with `check` as the test at every commit (bisect-step), then shows what changed in
// Warp's structure between the first bad commit and its parent.
// Exit codes: 0 first bad commit named; 1 none could be named (only skipped commits left, BAD
// is not bad, GOOD is not good); 2 usage; 3 internal; check's own 2, 3 or 77 when it aborted
// the bisection.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bisect/bisect_run_output.h"
#include "bisect/bisect_step.h"
#include "bisect/git.h"
#include "bisect/scratch_worktree.h"
#include "bisect/visit_log.h"
#include "cli/commands.h"
#include "codec/report_json.h"
#include "errors.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "render/judgement_text.h"
#include "run/process_runner.h"
#include "run/scratch_dir.h"
#include "verdict/judge.h"

namespace wcp::cli {
namespace {

namespace fs = std::filesystem;
using bisect::StepOutcome;
using bisect::Visit;

struct BisectArguments {
  std::string good;
  std::string bad;
  std::string budget_file;
  std::string only;
  std::string repo = ".";
  std::string json_path;
  bool quiet = false;
};

// What the user named, checked before anything is created.
struct Setup {
  fs::path top;      // the repository's top level
  fs::path budget;   // repository-relative
  std::string good;  // full shas
  std::string bad;
};

std::string resolve_commit(const fs::path& top, const std::string& spec, const char* what) {
  const auto resolved = bisect::run_git(top, {"rev-parse", "--verify", "--quiet", spec + "^{commit}"});
  if (!resolved.ok()) throw UsageError(fmt::format("{} '{}' is not a commit in {}", what, spec, top.string()));
  return resolved.first_line();
}

// A relative BUDGET is taken from the current directory, else from the repository's top level.
fs::path repository_relative(const fs::path& top, const std::string& budget) {
  const auto inside = [&top](const fs::path& path) -> std::optional<fs::path> {
    const auto relative = fs::weakly_canonical(fs::absolute(path)).lexically_relative(top);
    if (relative.empty() || *relative.begin() == ".." || relative == ".") return std::nullopt;
    return relative;
  };
  if (const auto relative = inside(budget)) return *relative;
  if (fs::path(budget).is_relative()) {
    if (const auto relative = inside(top / budget); relative && fs::exists(top / budget)) return *relative;
  }
  throw UsageError(fmt::format("{} is outside the repository {}: the budget file must be part of the history bisected",
                               budget, top.string()));
}

Setup validate(const BisectArguments& arguments) {
  Setup setup;
  const auto top = bisect::run_git(arguments.repo, {"rev-parse", "--show-toplevel"});
  if (!top.ok())
    throw UsageError(fmt::format("{} is not inside a git repository ({})", arguments.repo, top.error_line()));
  setup.top = fs::weakly_canonical(top.first_line());
  setup.budget = repository_relative(setup.top, arguments.budget_file);
  setup.good = resolve_commit(setup.top, arguments.good, "GOOD");
  setup.bad = resolve_commit(setup.top, arguments.bad, "BAD");
  if (setup.good == setup.bad) throw UsageError("GOOD and BAD are the same commit " + setup.good);
  if (!bisect::run_git(setup.top, {"merge-base", "--is-ancestor", setup.good, setup.bad}).ok()) {
    throw UsageError(fmt::format("GOOD {} is not an ancestor of BAD {}", arguments.good, arguments.bad));
  }
  if (!bisect::run_git(setup.top, {"cat-file", "-e", setup.bad + ":" + setup.budget.generic_string()}).ok()) {
    throw UsageError(fmt::format("{} does not exist at BAD {}", setup.budget.generic_string(), arguments.bad));
  }
  return setup;
}

// `abc1234 subject`, for the reader.
std::string describe(const fs::path& top, const std::string& sha) {
  const auto line = bisect::run_git(top, {"log", "-1", "--format=%h %s", sha});
  return line.ok() ? line.first_line() : sha.substr(0, 12);
}

const Visit* find_visit(const std::vector<Visit>& visits, const std::string& sha) {
  const auto found = std::find_if(visits.rbegin(), visits.rend(), [&sha](const Visit& v) { return v.sha == sha; });
  return found == visits.rend() ? nullptr : &*found;
}

// Why the bisection stopped, from abort.txt: the exit code on its first line, then the reason.
int report_abort(const fs::path& state, CliContext& context) {
  std::ifstream in(bisect::abort_file(state));
  std::string code_line;
  std::getline(in, code_line);
  std::stringstream rest;
  rest << in.rdbuf();
  int code = kInternal;
  try {
    code = std::stoi(code_line);
  } catch (const std::exception&) {
  }
  std::string text = rest.str();
  const auto first_break = text.find('\n');
  context.err << "warp-compile-probe: error: the bisection was aborted " << text.substr(0, first_break) << "\n";
  if (first_break != std::string::npos) context.err << text.substr(first_break + 1);
  return code;
}

struct Structure {
  std::string entry;
  verdict::Judgement judgement;
};

// Each entry measured at both commits, judged parent -> first bad; only the structure is shown.
std::vector<Structure> structure_between(const fs::path& state, const std::string& parent, const std::string& bad) {
  std::vector<Structure> structures;
  std::error_code ignored;
  std::vector<fs::path> reports;
  for (const auto& file : fs::directory_iterator(bisect::reports_dir(state, bad), ignored))
    reports.push_back(file.path());
  std::sort(reports.begin(), reports.end());
  for (const auto& report : reports) {
    const auto parent_report = bisect::reports_dir(state, parent) / report.filename();
    if (report.extension() != ".json" || !fs::is_regular_file(parent_report, ignored)) continue;
    structures.push_back(
        {report.stem().string(), verdict::judge(load_report(parent_report.string()), load_report(report.string()))});
  }
  return structures;
}

nlohmann::json structure_json(const Structure& structure) {
  nlohmann::json counts = nlohmann::json::array();
  for (const auto& count : structure.judgement.counts) {
    counts.push_back({{"count", std::string(verdict::to_string(count.count))},
                      {"parent", count.baseline ? nlohmann::json(*count.baseline) : nlohmann::json(nullptr)},
                      {"first_bad", count.candidate ? nlohmann::json(*count.candidate) : nlohmann::json(nullptr)}});
  }
  nlohmann::json modules = nlohmann::json::array();
  for (const auto& row : structure.judgement.modules) {
    modules.push_back({{"module", row.module},
                       {"parent_hashes", row.baseline_hashes},
                       {"first_bad_hashes", row.candidate_hashes},
                       {"changed", row.changed}});
  }
  return {{"entry", structure.entry}, {"counts", counts}, {"modules", modules}};
}

class Bisection {
 public:
  Bisection(const BisectArguments& arguments, const Setup& setup, CliContext& context)
      : arguments_(arguments), setup_(setup), context_(context) {}

  int run() {
    const ScratchDir scratch("warp-compile-probe-bisect-");
    state_ = scratch.make_subdir("state");
    temp_ = scratch.make_subdir("tmp");
    const bisect::ScratchWorktree worktree(setup_.top, scratch.path() / "worktree", setup_.bad);
    worktree_ = worktree.path();
    const auto started = bisect::run_git(worktree_, {"bisect", "start", setup_.bad, setup_.good});
    if (!started.ok()) throw RunError("git bisect start failed: " + started.error_line());

    const auto output = run_git_bisect();
    if (fs::exists(bisect::abort_file(state_))) return report_abort(state_, context_);
    visits_ = bisect::read_visits(bisect::visits_file(state_));
    const auto ended = bisect::parse_bisect_run_output(output);
    if (ended.end == bisect::BisectEnd::only_skipped) return only_skipped(ended.candidates);
    if (ended.end != bisect::BisectEnd::first_bad) {
      std::istringstream lines(output);
      std::string line, last;
      while (std::getline(lines, line)) {
        if (!line.empty()) last = line;
      }
      throw RunError("git bisect run stopped without naming a first bad commit: " + last);
    }
    const auto confirmed = bisect::run_git(worktree_, {"rev-parse", "refs/bisect/bad"});
    const std::string first_bad = confirmed.ok() ? confirmed.first_line() : ended.first_bad;
    // The bisection's own state is done with; what follows checks commits out by hand.
    bisect::run_git(worktree_, {"bisect", "reset"});
    return first_bad_found(first_bad);
  }

 private:
  // git's output is kept whole to read how it ended; its progress lines are shown as they come.
  std::string run_git_bisect() {
    RunRequest request;
    request.argv = {
        "git", "bisect", "run", fs::read_symlink("/proc/self/exe").string(), "bisect-step", setup_.budget.string()};
    if (!arguments_.only.empty()) request.argv.insert(request.argv.end(), {"--only", arguments_.only});
    request.argv.insert(request.argv.end(), {"--state", state_.string()});
    request.environment = current_environment();
    // On Ctrl-C git dies at once and the rest of its process group is killed before a check can
    // remove its own scratch files; with TMPDIR inside ours, they go when ours does.
    request.environment["TMPDIR"] = temp_.string();
    request.cwd = worktree_;
    request.timeout = std::chrono::hours(72);       // each check enforces its commands' own timeouts
    request.kill_grace = std::chrono::seconds(15);  // time for bisect-step to stop its check
    std::string output;
    std::array<std::string, 2> pending_of;  // a partial line per stream
    const auto sink = [&](OutputStream stream, std::string_view bytes) {
      output.append(bytes);
      if (arguments_.quiet) return;
      auto& pending = pending_of[stream == OutputStream::out ? 0 : 1];
      pending.append(bytes);
      for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
        const auto line = pending.substr(0, end);
        if (line.rfind("Bisecting:", 0) == 0 || line.rfind("bisect-step:", 0) == 0) context_.err << line << "\n";
        pending.erase(0, end + 1);
      }
    };
    if (!arguments_.quiet)
      context_.err << "bisecting " << arguments_.good << ".." << arguments_.bad << " on "
                   << setup_.budget.generic_string() << " in " << worktree_.string() << "\n";
    run_process(request, sink, context_.interrupts);
    return output;
  }

  bisect::StepResult check_commit(const std::string& sha) {
    const auto checkout = bisect::run_git(worktree_, {"checkout", "--quiet", "--detach", sha});
    if (!checkout.ok())
      throw RunError("git checkout " + sha + " in the scratch worktree failed: " + checkout.error_line());
    if (!arguments_.quiet)
      context_.err << "checking " << describe(setup_.top, sha) << " (not visited by the bisection)\n";
    bisect::StepRequest request{fs::read_symlink("/proc/self/exe"), worktree_, setup_.budget, arguments_.only, state_};
    auto result = bisect::run_step(request, context_.interrupts);
    checked_after_.push_back({result.sha, result.decision.outcome, result.decision.reason});
    if (result.decision.outcome == StepOutcome::abort) bisect::write_abort(state_, result);
    return result;
  }

  int first_bad_found(const std::string& first_bad) {
    json_["first_bad"] = {{"sha", first_bad}, {"subject", describe(setup_.top, first_bad)}};
    const Visit* bad_visit = find_visit(visits_, first_bad);
    std::string why_bad = bad_visit ? bad_visit->reason : "";
    // git names BAD without testing it when every commit it tested was good: test it now.
    if (!bad_visit) {
      const auto result = check_commit(first_bad);
      if (result.decision.outcome == StepOutcome::abort) return report_abort(state_, context_);
      if (result.decision.outcome != StepOutcome::bad) return bad_is_not_bad(result);
      why_bad = result.decision.reason;
    }
    const auto parent_line = bisect::run_git(setup_.top, {"rev-parse", first_bad + "^"});
    if (!parent_line.ok()) throw RunError("the first bad commit " + first_bad + " has no parent");
    const std::string parent = parent_line.first_line();
    std::error_code ignored;
    const Visit* parent_visit = find_visit(visits_, parent);
    std::string parent_state = parent_visit ? std::string(bisect::to_string(parent_visit->outcome)) : "good (GOOD)";
    if (!fs::is_directory(bisect::reports_dir(state_, parent), ignored)) {
      // Not visited (it is GOOD, which git takes on trust): measured now for the comparison.
      const auto result = check_commit(parent);
      if (result.decision.outcome == StepOutcome::abort) return report_abort(state_, context_);
      if (result.decision.outcome == StepOutcome::bad) {
        return not_named("good_is_not_good",
                         fmt::format("the parent {} of {} fails the budget too ({}): GOOD {} is not good",
                                     describe(setup_.top, parent), describe(setup_.top, first_bad),
                                     result.decision.reason, arguments_.good));
      }
      parent_state = std::string(bisect::to_string(result.decision.outcome));
    }
    json_["result"] = "first_bad";
    json_["reason"] = why_bad;
    json_["parent"] = {{"sha", parent}, {"subject", describe(setup_.top, parent)}, {"outcome", parent_state}};

    auto& out = context_.out;
    out << "First bad commit: " << describe(setup_.top, first_bad) << "\n";
    out << "  " << why_bad << "\n";
    out << "Parent: " << describe(setup_.top, parent) << " (" << parent_state << ")\n";
    print_visits();
    const auto structures = structure_between(state_, parent, first_bad);
    json_["structure"] = nlohmann::json::array();
    for (const auto& structure : structures) {
      out << fmt::format("\n{}: parent {} -> first bad {}\n", structure.entry, parent.substr(0, 12),
                         first_bad.substr(0, 12));
      render::render_structure(structure.judgement, out);
      json_["structure"].push_back(structure_json(structure));
    }
    if (structures.empty()) out << "\nStructure: unavailable (no report measured at both commits)\n";
    write_json();
    return kOk;
  }

  int only_skipped(const std::vector<std::string>& candidates) {
    // git lists BAD among the candidates without having tested it: a BAD that is not bad is
    // the likelier story, and the one to tell.
    if (!find_visit(visits_, setup_.bad) &&
        std::find(candidates.begin(), candidates.end(), setup_.bad) != candidates.end()) {
      bisect::run_git(worktree_, {"bisect", "reset"});
      const auto result = check_commit(setup_.bad);
      if (result.decision.outcome == StepOutcome::abort) return report_abort(state_, context_);
      if (result.decision.outcome != StepOutcome::bad) return bad_is_not_bad(result);
    }
    std::string message =
        "No single first bad commit: only skipped commits are left to test; the first bad commit is one of:";
    json_["candidates"] = nlohmann::json::array();
    for (const auto& sha : candidates) {
      const Visit* visit = find_visit(visits_, sha);
      message += fmt::format("\n  {}{}", describe(setup_.top, sha), visit ? " (skipped: " + visit->reason + ")" : "");
      json_["candidates"].push_back(sha);
    }
    return not_named("only_skipped", message);
  }

  int bad_is_not_bad(const bisect::StepResult& result) {
    return not_named("bad_is_not_bad", fmt::format("BAD {} is not bad ({}: {})", describe(setup_.top, setup_.bad),
                                                   bisect::to_string(result.decision.outcome), result.decision.reason));
  }

  int not_named(const char* result, const std::string& message) {
    json_["result"] = result;
    json_["reason"] = message;
    context_.out << message << "\n";
    print_visits();
    write_json();
    return kFailed;
  }

  void print_visits() {
    auto& out = context_.out;
    json_["skipped"] = nlohmann::json::array();
    json_["visited"] = nlohmann::json::array();
    bool any_skipped = false;
    for (const auto& visit : visits_) {
      if (visit.outcome != StepOutcome::skip) continue;
      if (!any_skipped) out << "Skipped:\n";
      any_skipped = true;
      out << "  " << describe(setup_.top, visit.sha) << ": " << visit.reason << "\n";
      json_["skipped"].push_back({{"sha", visit.sha}, {"reason", visit.reason}});
    }
    out << "Visited (in order):\n";
    const auto show = [&](const Visit& visit, bool after) {
      out << fmt::format("  {:<5} {}{}  {}\n", bisect::to_string(visit.outcome), describe(setup_.top, visit.sha),
                         after ? " (checked after the bisection)" : "", visit.reason);
      json_["visited"].push_back({{"sha", visit.sha},
                                  {"outcome", std::string(bisect::to_string(visit.outcome))},
                                  {"reason", visit.reason},
                                  {"after_bisection", after}});
    };
    for (const auto& visit : visits_) show(visit, false);
    for (const auto& visit : checked_after_) show(visit, true);
  }

  void write_json() {
    if (arguments_.json_path.empty()) return;
    json_["good"] = setup_.good;
    json_["bad"] = setup_.bad;
    json_["budget"] = setup_.budget.generic_string();
    write_file_atomically(arguments_.json_path, json_.dump(2) + "\n");
  }

  const BisectArguments& arguments_;
  const Setup& setup_;
  CliContext& context_;
  fs::path state_;
  fs::path worktree_;
  fs::path temp_;
  std::vector<Visit> visits_;
  std::vector<Visit> checked_after_;
  nlohmann::json json_ = nlohmann::json::object();
};

int run_bisect(const BisectArguments& arguments, CliContext& context) {
  const Setup setup = validate(arguments);
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  return Bisection(arguments, setup, context).run();
}

}  // namespace

void add_bisect_command(CLI::App& root, CliContext& context) {
  auto arguments = std::make_shared<BisectArguments>();
  CLI::App* command = root.add_subcommand(
      "bisect", "Find the first commit that fails a budget (git bisect run with check, in a scratch worktree)");
  command->add_option("good", arguments->good, "A commit that passes the budget")->required();
  command->add_option("bad", arguments->bad, "A later commit that fails it")->required();
  command
      ->add_option("budget_file", arguments->budget_file,
                   "The budget file, inside the repository (relative: from the current directory, else from the "
                   "repository's top level)")
      ->required();
  command->add_option("--only", arguments->only, "Check only the command entry with this name");
  command->add_option("--repo", arguments->repo, "The repository (default: the one the current directory is in)")
      ->capture_default_str();
  command->add_option("--json", arguments->json_path, "Also write the result as JSON to this path");
  command->add_flag("--quiet", arguments->quiet, "No progress on stderr");
  command->callback([arguments, &context] { context.exit_code = run_bisect(*arguments, context); });
}

}  // namespace wcp::cli
