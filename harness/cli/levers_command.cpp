// `levers [OPTIONS] -- COMMAND...`: try each fix the instrumentation can apply from outside the
// program's code, on this machine, and measure it (issue 30). Measures one baseline sample and
// diagnoses it (or reads --baseline), chooses the levers (levers/lever_choice.h), prints the
// plan, runs one shared baseline arm and one arm per lever in interleaved rounds
// (levers/lever_arms.h), and judges each lever against the baseline (levers/lever_judgement.h).
// Exit 0 when it ran, whatever the levers did; usage errors exit 2, a baseline that measured
// nothing exits 1 (docs/cli.md#levers).

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "analysis/diagnose.h"
#include "cli/command_progress.h"
#include "cli/commands.h"
#include "cli/common_options.h"
#include "cli/fixed_cost_input.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "codec/lever_ledger_json.h"
#include "codec/report_json.h"
#include "errors.h"
#include "facts/queries.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "levers/lever_arms.h"
#include "levers/lever_choice.h"
#include "levers/lever_judgement.h"
#include "levers/lever_protocol.h"
#include "measure/measure.h"
#include "render/format.h"
#include "render/report_text.h"
#include "results/ledger_writer.h"
#include "stats/paired.h"
#include "verdict/judge.h"

namespace wcp::cli {
namespace {

struct LeversArguments {
  // Rounds: 5, the fewest with which the judge's sign test can credit a lever (as ab's default),
  // or auto (until each lever is decided, verdict/paired_stop.h).
  std::string pairs = "5";
  std::string baseline_path;
  std::vector<std::string> only;
  std::vector<std::string> skip;
  double max_minutes = 0.0;  // 0: no bound
  bool numerics = false;
  std::vector<std::string> ignore_output;
  std::string verify;
  std::string json_path;
  std::string markdown_path;
  std::string html_path;
  std::string ledger_path;
  double timeout_s = 900;
  bool quiet = false;
  bool verbose = false;
  std::string cwd;
  std::vector<std::string> command;
};

std::string_view status_text(LeverStatus status) {
  switch (status) {
    case LeverStatus::measured:
      return "measured";
    case LeverStatus::needed_by_program:
      return "needed_by_program";
    case LeverStatus::did_not_arrive:
      return "did_not_arrive";
    case LeverStatus::not_applicable:
      return "not_applicable";
    case LeverStatus::skipped:
      return "skipped";
  }
  return "not_applicable";
}

std::string lever_words(const Lever& lever) {
  switch (lever.kind) {
    case LeverKind::config:
      return fmt::format("warp.config.{} = {} at the entry point", lever.name, lever.value_json);
    case LeverKind::module_option:
      return fmt::format(
          "module option {} = {} at creation of {}", lever.name, lever.value_json,
          lever.modules.size() == 1 ? lever.modules.front() : std::to_string(lever.modules.size()) + " modules");
    case LeverKind::drop_unique:
      return fmt::format("module=\"unique\" dropped for {} kernel(s)", lever.kernels.size());
    case LeverKind::noop_call:
      return fmt::format("wp.{}() made a no-op", lever.name);
  }
  return lever.id;
}

// Seconds one sample (cold + warm) of the baseline took: what the plan's estimate multiplies.
std::optional<double> sample_seconds(const Report& report) {
  if (!report.cold_wall_ms) return std::nullopt;
  return (report.cold_wall_ms->median + (report.warm_wall_ms ? report.warm_wall_ms->median : 0.0)) / 1000.0;
}

void bound_by_minutes(std::vector<levers::ChosenLever>& chosen, double max_minutes, int pairs,
                      const std::optional<double>& per_sample_s) {
  if (max_minutes <= 0.0 || !per_sample_s) return;
  int runnable = 0;
  for (const auto& lever : chosen) runnable += lever.runnable() ? 1 : 0;
  // Drop levers from the end of the list (the finding-driven ones come after the standing ones)
  // until the rounds fit.
  for (auto it = chosen.rbegin(); it != chosen.rend() && runnable > 0; ++it) {
    const double minutes = (runnable + 1) * pairs * *per_sample_s / 60.0;
    if (minutes <= max_minutes) break;
    if (!it->runnable()) continue;
    it->outcome.status = LeverStatus::skipped;
    it->outcome.reason = fmt::format("--max-minutes {}: measuring it too would take ~{:.1f} min", max_minutes, minutes);
    --runnable;
  }
}

std::string device_of(const Report& report) {
  for (const auto& event : report.module_events) {
    if (!event.device.empty() && event.device != "cpu") return event.device;
  }
  return "cpu";
}

int run_levers(const LeversArguments& arguments, CliContext& context) {
  if (arguments.command.empty()) throw UsageError("give the command after `--`");
  const PairCount pairs = parse_pair_count(arguments.pairs, "--pairs");
  for (const auto& [path, flag] :
       {std::pair{arguments.json_path, "--json"}, std::pair{arguments.markdown_path, "--markdown"},
        std::pair{arguments.html_path, "--html"}, std::pair{arguments.ledger_path, "--ledger"}}) {
    if (!path.empty()) require_writable_destination(path, flag);
  }
  const auto started = std::chrono::steady_clock::now();
  measure::MeasureOptions command;
  command.command = arguments.command;
  command.cwd = std::filesystem::absolute(arguments.cwd.empty() ? std::filesystem::current_path()
                                                                : std::filesystem::path(arguments.cwd));
  command.timeout = std::chrono::milliseconds(static_cast<long long>(arguments.timeout_s * 1000.0));
  command.ignore_output = arguments.ignore_output;
  // Warp's own load lines print each module's hash, which is exactly what a lever moves: they
  // are Warp's log, not the program's output, and are left out of the stdout comparison.
  command.ignore_output.push_back(R"(^Module \S+ [0-9a-f]+ load on device)");
  command.samples = 1;
  measure::validate(command);

  CommandProgress progress(context.err, arguments.quiet);
  Report baseline;
  std::string baseline_source = "measured";
  if (!arguments.baseline_path.empty()) {
    baseline = load_report(arguments.baseline_path);
    baseline_source = arguments.baseline_path;
  } else {
    // Two samples for the diagnosis that chooses the levers: CS-9 tells a unique kernel made from
    // constants (which drop-unique may move) by its hash holding across samples, so one sample
    // could never offer that lever. The judging baseline is the arm below.
    measure::MeasureOptions first = command;
    first.samples = 2;
    first.label = "baseline (diagnosis)";
    first.extra_environment[levers::kLeversVariable] = "";
    baseline = measure::measure(first, context.interrupts, progress.listener());
    if (!baseline.measured()) throw RunError("the baseline run measured nothing: no sample of the command succeeded");
  }
  const analysis::Diagnosis diagnosis = analysis::diagnose(baseline, calibrated_inputs(baseline, context));
  levers::ChoiceOptions choice;
  choice.numerics = arguments.numerics;
  choice.workers = static_cast<int>(std::max(2u, std::thread::hardware_concurrency()));
  std::vector<levers::ChosenLever> chosen = levers::choose_levers(baseline, diagnosis, choice);
  levers::apply_selection(chosen, arguments.only, arguments.skip);
  const auto per_sample = sample_seconds(baseline);
  bound_by_minutes(chosen, arguments.max_minutes, pairs.most, per_sample);

  std::vector<Lever> to_run;
  for (const auto& lever : chosen) {
    if (lever.runnable()) to_run.push_back(lever.outcome.lever);
  }
  const int runs = to_run.empty() ? 0 : static_cast<int>(to_run.size() + 1) * pairs.most;
  context.out << fmt::format(
      "Plan: {} lever(s) to measure, {}{} run(s) ({} arm(s) x {}{} pair(s)){}\n", to_run.size(),
      pairs.automatic ? "at most " : "", runs, to_run.empty() ? 0 : to_run.size() + 1,
      pairs.automatic ? "at most " : "", pairs.most,
      per_sample && runs > 0
          ? fmt::format(", {}about {:.1f} min", pairs.automatic ? "at most " : "", runs * *per_sample / 60.0)
          : "");
  if (const int fewest = fewest_pairs_to_credit(verdict::kSignTestAlpha); !to_run.empty() && pairs.most < fewest) {
    context.out << fmt::format(
        "  with {} pair(s) the sign test cannot credit a lever ({} is the fewest): every verdict will be "
        "INCONCLUSIVE, the numbers only\n",
        pairs.most, fewest);
  }
  for (const auto& lever : chosen) {
    context.out << fmt::format(
        "  {:<15} {:<32} {}\n", lever.runnable() ? std::string_view("will measure") : status_text(lever.outcome.status),
        lever.outcome.lever.id, lever.runnable() ? lever_words(lever.outcome.lever) : lever.outcome.reason);
  }
  context.out.flush();

  LeverLedger ledger;
  ledger.command = command.command;
  ledger.cwd = command.cwd.string();
  ledger.warp_version = baseline.warp_version;
  ledger.device = device_of(baseline);
  ledger.pairs = pairs.most;
  ledger.pairs_automatic = pairs.automatic;
  ledger.baseline_source = baseline_source;
  ledger.runs_planned = runs;
  if (!to_run.empty()) {
    levers::ArmsOptions arms_options;
    arms_options.pairs = pairs.most;
    arms_options.verify = arguments.verify;
    if (pairs.automatic) {
      arms_options.open_levers = [&to_run](const levers::LeverArms& so_far) {
        std::vector<bool> open;
        for (std::size_t lever = 0; lever < to_run.size(); ++lever) {
          open.push_back(!levers::lever_decision(so_far.baseline, so_far.levers[lever], to_run[lever]).decided);
        }
        return open;
      };
    }
    const levers::LeverArms arms =
        levers::measure_lever_arms(command, to_run, arms_options, context.interrupts, progress.listener());
    if (!arms.baseline.report.measured()) {
      throw RunError("the baseline arm measured nothing: no sample of the command succeeded without levers");
    }
    ledger.pairs = arms.rounds;
    std::size_t next = 0;
    for (auto& lever : chosen) {
      if (!lever.runnable()) continue;
      const levers::ArmResult& arm = arms.levers[next++];
      levers::judge_lever(arms.baseline, arm, lever.outcome, context.judge_fault);
      if (pairs.automatic)
        lever.outcome.decided_by = levers::lever_decision(arms.baseline, arm, lever.outcome.lever).how;
    }
  }
  for (auto& lever : chosen) ledger.outcomes.push_back(std::move(lever.outcome));
  ledger.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

  if (!arguments.json_path.empty()) write_file_atomically(arguments.json_path, lever_ledger_to_json_text(ledger));
  write_outputs(ledger,
                {{arguments.markdown_path, render::Format::markdown}, {arguments.html_path, render::Format::html}});
  if (!arguments.ledger_path.empty()) write_file_atomically(arguments.ledger_path, results::lever_ledger_yaml(ledger));
  context.out << "\n";
  render::write(render::LeverLedgerView{ledger, arguments.verbose}, render::Format::text, context.out);
  return kOk;
}

}  // namespace

void add_levers_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<LeversArguments>(
      root, context, "levers",
      "Apply each fix the instrumentation can make from outside the code, and measure it against a shared baseline",
      run_levers);
  add_options(
      *command,
      {{"--pairs", &arguments->pairs,
        "Interleaved rounds: samples per arm (default 5, the fewest the sign test can credit), or auto: until each "
        "lever is decided, at most 10"},
       {"--baseline",
        &arguments->baseline_path,
        "Choose the levers from this `measure` report instead of measuring one (the baseline arm is still "
        "measured, for paired judging)",
        {.check = CLI::ExistingFile}},
       {"--only",
        &arguments->only,
        "Measure only these lever ids (comma-separated; a family such as backward-off names all its levers)",
        {.delimiter = ','}},
       {"--skip", &arguments->skip, "Leave these lever ids out (comma-separated)", {.delimiter = ','}},
       {"--max-minutes",
        &arguments->max_minutes,
        "Leave out the last levers until the run's estimate fits in this many minutes",
        {.check = CLI::PositiveNumber}},
       {"--numerics", &arguments->numerics, "Also offer levers that change results (fast_math)"},
       {"--ignore-output", &arguments->ignore_output,
        "A regex of output lines left out of the stdout comparison (repeatable)"},
       {"--verify", &arguments->verify,
        "Your own check, run with /bin/sh -c in the command's directory after each sample; non-zero after a "
        "lever's sample marks it needed by the program"},
       {"--html", &arguments->html_path, "Write the ledger as HTML"},
       {"--ledger", &arguments->ledger_path, "Write the ledger file `report --ledger` reads"}});
  add_shared_options(
      *command, {.json = {&arguments->json_path, "the ledger"},
                 .markdown = {&arguments->markdown_path, "the ledger"},
                 .cwd = {&arguments->cwd, "the command"},
                 .timeout_s = &arguments->timeout_s,
                 .quiet = &arguments->quiet,
                 .verbose = {&arguments->verbose, "each lever's scope, owner, proof of arrival, clocks and evidence"}});
  add_options(*command, {{"command", &arguments->command, "-- COMMAND...", {.required = true}}});
  command->positionals_at_end(true);
}

}  // namespace wcp::cli
