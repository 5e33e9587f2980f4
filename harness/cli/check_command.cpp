// `check BUDGET.yaml`: measure each command of a budget file and gate it on its budgets.
// Exit codes: 0 all pass, 1 a budget failed, 2 configuration error, 77 (kNotRun) nothing was
// run because every selected command needs a device this machine lacks (CTest SKIP_RETURN_CODE).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>

#include "budget/budget_parse.h"
#include "budget/cuda_device.h"
#include "budget/evaluate.h"
#include "calibrate/calibration.h"
#include "cli/commands.h"
#include "errors.h"
#include "io/environment.h"
#include "measure/measure.h"
#include "render/budget_json.h"
#include "render/budget_markdown.h"
#include "render/budget_text.h"
#include "render/format.h"
#include "render/progress_line.h"
#include "io/file_io.h"
#include "model/report_json.h"

namespace wcp::cli {
namespace {

struct CheckArguments {
  std::string budget_file;
  std::string only;
  std::string json_path;
  std::string markdown_path;
  bool update_baseline = false;
  bool fail_on_improvement = false;
  std::string calibration_path;
  bool list = false;
  bool quiet = false;
};

// `name;samples;timeout_seconds;device` per entry, read by cmake/WarpCompileBudget.cmake.
int list_entries(const budget::BudgetFile& file, CliContext& context) {
  for (const auto& entry : file.commands) {
    context.out << entry.name << ";" << entry.samples << ";"
                << std::chrono::duration_cast<std::chrono::seconds>(entry.timeout).count() << ";"
                << to_string(entry.device) << "\n";
  }
  return kOk;
}

// How a budget entry is measured: the bridge from the budget file to the measure stage lives
// here, at the composition root, so neither stage depends on the other.
measure::MeasureOptions measure_options_for(const budget::CommandEntry& entry) {
  measure::MeasureOptions options;
  options.command = entry.command;
  options.cwd = entry.cwd;
  options.samples = entry.samples;
  options.timeout = entry.timeout;
  options.label = entry.name;
  options.extra_environment = entry.env;
  return options;
}

std::vector<const budget::CommandEntry*> select(const budget::BudgetFile& file, const std::string& only) {
  std::vector<const budget::CommandEntry*> selected;
  std::vector<std::string> names;
  for (const auto& entry : file.commands) {
    if (only.empty() || entry.name == only) selected.push_back(&entry);
    names.push_back(entry.name);
  }
  if (selected.empty()) {
    throw UsageError(fmt::format("--only {}: no such command in {} (has: {})", only, file.path.string(), fmt::join(names, ", ")));
  }
  return selected;
}

// Accepting a new normal only makes sense when everything else about the run is acceptable.
void update_baseline(const budget::CommandEntry& entry, const Report& report, budget::CommandResult& result) {
  for (const auto& outcome : result.outcomes) {
    if (outcome.verdict == budget::Verdict::fail) {
      result.baseline_not_written = "budget " + outcome.budget + " failed";
      return;
    }
  }
  if (result.run_failure) {
    result.baseline_not_written = "the command could not be measured";
    return;
  }
  const auto& path = *entry.baseline_report;
  std::filesystem::create_directories(path.parent_path());
  write_file_atomically(path, report_to_json_text(report));
  result.baseline_written = path;
}

int run_check(const CheckArguments& arguments, CliContext& context) {
  const auto environment = process_environment();
  budget::LoadOptions load_options;
  load_options.baseline_may_be_missing = arguments.update_baseline;
  const budget::BudgetFile file = budget::load_budget_file(arguments.budget_file, environment, load_options);
  if (arguments.list) return list_entries(file, context);
  const auto selected = select(file, arguments.only);
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  if (!arguments.markdown_path.empty()) require_writable_destination(arguments.markdown_path, "--markdown");

  // Every baseline is read before the first run, so a corrupt one fails in seconds, not after
  // minutes of measuring.
  std::map<std::string, Report> baselines;
  for (const auto* entry : selected) {
    const auto& path = entry->baseline_report;
    std::error_code ignored;
    if (path && std::filesystem::is_regular_file(*path, ignored)) baselines.emplace(entry->name, load_report(path->string()));
  }

  const bool has_cuda = budget::cuda_device_present(environment);
  budget::EvaluateOptions evaluate_options{arguments.fail_on_improvement, arguments.update_baseline, {}, {}};
  const bool needs_calibration =
      std::any_of(selected.begin(), selected.end(), [](const auto* entry) { return entry->budgets.cold_units.has_value(); });
  if (needs_calibration) {
    // A normalised budget without a calibration can only fail; say so before measuring anything.
    const auto path = arguments.calibration_path.empty() ? calibrate::default_calibration_path()
                                                         : std::filesystem::path(arguments.calibration_path);
    evaluate_options.calibration = calibrate::load_calibration(path);
    if (!evaluate_options.calibration) {
      throw UsageError("cold_units needs a calibration and " + path.string() +
                       " does not exist: run `warp-compile-probe calibrate --warp-cpu` (or pass --calibration FILE)");
    }
    evaluate_options.calibration_source = path.string();
    context.out << "Calibration: " << path.string() << " (" << evaluate_options.calibration->created_at << ")\n";
  }
  budget::CheckResult result;
  result.file = file.path;
  render::render_budget_header(file.path, context.out);
  for (const auto* entry : selected) {
    if (entry->device == budget::DeviceRequirement::cuda && !has_cuda) {
      budget::CommandResult skipped;
      skipped.name = entry->name;
      skipped.line = entry->line;
      skipped.device = entry->device;
      skipped.not_run = "needs a CUDA device and this machine has none (set WCP_CUDA_DEVICE=1 to override)";
      render::render_command_result(skipped, context.out);
      result.commands.push_back(std::move(skipped));
      continue;
    }
    if (!arguments.quiet) context.err << "measuring " << entry->name << " (" << entry->samples << " sample(s))\n";
    render::ProgressLine progress(context.err, ::isatty(STDERR_FILENO) == 1);
    measure::SilentProgress silent;
    measure::ProgressListener& listener = arguments.quiet ? static_cast<measure::ProgressListener&>(silent) : progress;
    const Report report = measure::measure(measure_options_for(*entry), context.interrupts, listener);

    const auto baseline = baselines.find(entry->name);
    auto command_result = budget::evaluate(
        *entry, report, baseline == baselines.end() ? std::nullopt : std::optional<Report>(baseline->second), evaluate_options);
    if (arguments.update_baseline && entry->baseline_report) update_baseline(*entry, report, command_result);
    render::render_command_result(command_result, context.out);
    context.out.flush();
    result.commands.push_back(std::move(command_result));
  }
  render::render_budget_summary(result, context.out);

  for (const auto& [path, format] : {std::pair{arguments.json_path, render::Format::json},
                                     std::pair{arguments.markdown_path, render::Format::markdown}}) {
    if (path.empty()) continue;
    std::ostringstream text;
    render::write(result, format, text);
    write_file_atomically(path, text.str());
  }
  if (result.failed()) return kFailed;
  if (result.all_not_run()) return kNotRun;
  return kOk;
}

}  // namespace

void add_check_command(CLI::App& root, CliContext& context) {
  auto arguments = std::make_shared<CheckArguments>();
  CLI::App* command = root.add_subcommand("check", "Measure the commands of a budget file and gate them on their compile budgets");
  command->add_option("budget_file", arguments->budget_file, "The budget file (YAML, see docs/budgets.md)")->required();
  command->add_option("--only", arguments->only, "Check only the command entry with this name");
  command->add_flag("--update-baseline", arguments->update_baseline,
                    "After a run whose other budgets pass, write its report over each baseline");
  command->add_flag("--fail-on-improvement", arguments->fail_on_improvement,
                    "Fail when a command beats its baseline beyond the noise band (ratcheting)");
  command->add_option("--json", arguments->json_path, "Also write the result as JSON to this path");
  command->add_option("--markdown", arguments->markdown_path, "Also write a Markdown summary (CI step summary, PR comment)");
  command->add_option("--calibration", arguments->calibration_path,
                      "Calibration file for cold_units budgets (default: this host's file from `calibrate`)");
  command->add_flag("--list", arguments->list, "Validate the file and print name;samples;timeout;device per entry, run nothing");
  command->add_flag("--quiet", arguments->quiet, "No progress on stderr");
  command->callback([arguments, &context] { context.exit_code = run_check(*arguments, context); });
}

}  // namespace wcp::cli
