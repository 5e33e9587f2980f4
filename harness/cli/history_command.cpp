// `history show` and `history import`: read the compile-time history that `measure`, `check`
// and `ab` append to with --history FILE (or WCP_HISTORY), and turn saved reports into history.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "cli/commands.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "codec/report_json.h"
#include "errors.h"
#include "history/branch_verdicts.h"
#include "history/git_commit.h"
#include "history/history_store.h"
#include "history/machine.h"
#include "history/recorder.h"
#include "history/result_from_report.h"
#include "history/series_tests.h"
#include "history/trend.h"
#include "io/environment.h"
#include "io/file_io.h"
#include "render/format.h"
#include "render/history_svg.h"
#include "render/report_text.h"

namespace wcp::cli {
namespace {

history::HistoryLocation history_at(const std::string& option) {
  if (auto location = history::history_location(option, process_environment())) return *location;
  throw UsageError("no history: pass --history FILE|postgresql://… or set WCP_HISTORY");
}

// How many branches' latest verdicts the HTML page lists.
constexpr std::size_t kBranchVerdictsShown = 30;

struct ShowArguments {
  std::string history;
  std::string name;
  std::string host;
  std::string branch;
  std::string json_path;
  std::string markdown_path;
  std::string html_path;
  std::string svg_path;
};

int run_show(const ShowArguments& arguments, CliContext& context) {
  for (const auto& [path, flag] :
       {std::pair{arguments.json_path, "--json"}, std::pair{arguments.markdown_path, "--markdown"},
        std::pair{arguments.html_path, "--html"}, std::pair{arguments.svg_path, "--svg"}}) {
    if (!path.empty()) require_writable_destination(path, flag);
  }
  const auto store = history::open_history(history_at(arguments.history), history::HistoryStore::Mode::read);
  const auto results = store->results();
  const auto series =
      history::build_series(history::results_on_branch(results, arguments.branch), arguments.name, arguments.host);
  const render::HistoryView shown{
      series, store->shown(), history::latest_branch_verdicts(results, kBranchVerdictsShown),
      arguments.html_path.empty() ? std::vector<std::optional<history::SeriesTests>>{}
                                  : history::slowest_tests_per_series(series, render::kSlowestTestsShown)};
  write_outputs(shown, {{arguments.json_path, render::Format::json},
                        {arguments.markdown_path, render::Format::markdown},
                        {arguments.html_path, render::Format::html}});
  if (!arguments.svg_path.empty()) {
    // One file holds one chart: the clock of the first series (choose it with --command/--host).
    if (series.empty()) throw UsageError("--svg: the history holds no results for this selection");
    if (series.size() > 1) {
      context.err << fmt::format(
          "warp-compile-probe: note: --svg draws the first of {} series ({}); select one with "
          "--command and --host\n",
          series.size(), series.front().name);
    }
    write_file_atomically(arguments.svg_path, render::history_clock_svg(series.front()));
  }
  render::write(shown, render::Format::text, context.out);
  return kOk;
}

struct ImportArguments {
  std::string history;
  std::string from;
  std::vector<std::string> reports;
  std::string commit;
  std::string name;
  std::string machine_class;
  std::string branch;
};

// Copies another history's results as they were recorded (machine, class, branch, commit,
// time), in one transaction. A result already present, equal in every field but its id, is
// skipped, so importing the same history twice adds nothing.
int run_import_history(const ImportArguments& arguments, CliContext& context) {
  const auto source_location = history::parse_history_location(arguments.from);
  const auto source = history::open_history(source_location, history::HistoryStore::Mode::read);
  const auto destination = history::open_history(history_at(arguments.history), history::HistoryStore::Mode::append);
  if (source->shown() == destination->shown()) throw UsageError("history import --from: that is the history itself");
  auto present = destination->results();
  for (auto& result : present) result.id = 0;
  const auto incoming = source->results();
  std::vector<history::Result> fresh;
  for (auto result : incoming) {
    result.id = 0;
    if (std::find(present.begin(), present.end(), result) != present.end()) continue;
    fresh.push_back(result);
    present.push_back(std::move(result));
  }
  destination->append_all(fresh);
  context.out << fmt::format("imported {} results from {} into {} ({} already there)\n", fresh.size(), source->shown(),
                             destination->shown(), incoming.size() - fresh.size());
  return kOk;
}

int run_import(const ImportArguments& arguments, CliContext& context) {
  if (!arguments.from.empty()) {
    if (!arguments.reports.empty()) throw UsageError("history import: give reports or --from HISTORY, not both");
    return run_import_history(arguments, context);
  }
  if (arguments.reports.empty()) throw UsageError("history import: give report files, or --from HISTORY");
  // Every report is read before the first is stored: a bad one stores nothing.
  std::vector<std::pair<std::string, Report>> reports;
  for (const auto& path : arguments.reports) reports.emplace_back(path, load_report(path));
  const auto store = history::open_history(history_at(arguments.history), history::HistoryStore::Mode::append);
  // A report does not say which machine measured it; import records this one, which is right
  // for the usual case (reports saved by this machine's CI jobs) and says so.
  const history::Machine machine = history::current_machine(context.interrupts, arguments.machine_class);
  for (const auto& [path, report] : reports) {
    history::ResultContext result_context;
    result_context.source = history::Source::import;
    result_context.machine = machine;
    result_context.name = arguments.name;
    result_context.branch = arguments.branch;
    std::error_code ignored;
    const auto modified = std::filesystem::last_write_time(path, ignored);
    result_context.recorded_at =
        ignored ? history::utc_now()
                : history::utc_text(std::chrono::time_point_cast<std::chrono::system_clock::duration>(
                      std::chrono::file_clock::to_sys(modified)));
    if (!arguments.commit.empty()) {
      result_context.commit = history::Commit{arguments.commit, false};
    } else if (!report.cwd.empty() && std::filesystem::is_directory(report.cwd, ignored)) {
      // The commit the measured folder is at now: right when the report was just written.
      result_context.commit = history::commit_of(report.cwd, context.interrupts);
    }
    const auto result = history::result_from_report(report, result_context);
    const auto id = store->append(result);
    context.out << fmt::format("imported {} as result {} ({}, {}, {})\n", path, id, result.name,
                               history::short_sha(result.commit), result.machine.host);
  }
  return kOk;
}

}  // namespace

void add_history_command(CLI::App& root, CliContext& context) {
  CLI::App* command = root.add_subcommand(
      "history", "Show the compile-time history per command and machine, or import reports into it");
  command->require_subcommand(1);

  // Each subcommand registers on `history` as every command does on the root.
  const auto [show_command, show] = register_command<ShowArguments>(
      *command, context, "show",
      "A table by commit per command and machine, with the trend and the steps (--html, --svg for plots)", run_show);
  add_options(
      *show_command,
      {{"--history", &show->history, "The history: a file, sqlite:FILE or postgresql://… (default: $WCP_HISTORY)"},
       {"--command", &show->name, "Only the series with this name (a budget entry's name, a label)"},
       {"--host", &show->host, "Only results recorded on this host"},
       {"--branch", &show->branch,
        "Only results recorded on this branch (e.g. main: the trend without pull requests' runs)"},
       {"--json", &show->json_path, "Also write the series, points and steps as JSON"},
       {"--markdown", &show->markdown_path, "Also write a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)"},
       {"--html", &show->html_path, "Also write a self-contained HTML page with the plots"},
       {"--svg", &show->svg_path, "Also write the clock plot of the (first) series as SVG"}});

  const auto [import_command, import] = register_command<ImportArguments>(
      *command, context, "import", "Append saved reports (this tool's or the original probe's JSON) to the history",
      run_import);
  add_options(
      *import_command,
      {{"--history", &import->history,
        "The history to append to: a file, sqlite:FILE or postgresql://… (default: $WCP_HISTORY)"},
       {"--from", &import->from,
        "Copy every result of this other history (a file or postgresql://…) as it was recorded; results already "
        "present are skipped"},
       {"--commit", &import->commit,
        "The commit the reports measured (default: the commit their folder is at now, if any)"},
       {"--machine-class", &import->machine_class,
        "The runner class the reports were measured on (default: $WCP_MACHINE_CLASS, else this machine's)"},
       {"--branch", &import->branch, "The branch the reports measured (default: none)"},
       {"--name", &import->name, "List them under this name (default: label, else the command)"},
       {"reports", &import->reports, "Report JSON files", {.check = CLI::ExistingFile}}});
}

}  // namespace wcp::cli
