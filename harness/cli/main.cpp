// warp-compile-probe: the CLI boundary. Parses arguments, runs one subcommand, and turns
// every error into one line on stderr and a documented exit code (docs/cli.md#exit-codes).
#include <algorithm>
#include <iostream>
#include <string_view>
#include <vector>

#include "cli/commands.h"
#include "errors.h"
#include "io/environment.h"
#include "io/install_layout.h"
#include "io/suggestion.h"
#include "run/interrupt_watch.h"
#include "verdict/judge_fault.h"

namespace {

// CLI11 answers a mistyped subcommand ("mesure") with "A subcommand is required". Walking the
// words before parsing finds the first that names no subcommand where one is expected, so the
// error can say so and suggest the nearest name.
void refuse_unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  const CLI::App* level = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string_view word = argv[i];
    if (word.starts_with('-')) continue;
    const auto subcommands = level->get_subcommands([](const CLI::App*) { return true; });
    if (subcommands.empty()) return;
    const auto match = std::find_if(subcommands.begin(), subcommands.end(),
                                    [&](const CLI::App* sub) { return sub->check_name(std::string(word)); });
    if (match == subcommands.end()) {
      std::vector<std::string_view> names;
      for (const CLI::App* sub : subcommands) names.push_back(sub->get_name());
      const std::string where = level == &app ? "" : " of '" + level->get_name() + "'";
      throw wcp::UsageError("unknown subcommand '" + std::string(word) + "'" + where + wcp::did_you_mean(word, names));
    }
    level = *match;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace wcp::cli;
  try {
    wcp::InterruptWatch interrupts;
    CliContext context{std::cout, std::cerr, interrupts, kOk, wcp::verdict::judge_fault(wcp::process_environment())};

    CLI::App app{"warp-compile-probe: measure, explain and gate NVIDIA Warp JIT compile cost", "warp-compile-probe"};
    app.set_version_flag("--version", WCP_VERSION);
    // Like --version, it answers at once, without a subcommand.
    app.add_flag_callback(
           "--cmake-dir",
           [&context] {
             context.out << wcp::cmake_prefix_of(wcp::running_executable()).string() << "\n";
             throw CLI::Success();
           },
           "Print the prefix to put on CMAKE_PREFIX_PATH for find_package(WarpCompileProbe), and exit")
        ->trigger_on_parse();
    app.require_subcommand(1);
    add_measure_command(app, context);
    add_compare_command(app, context);
    add_ab_command(app, context);
    add_report_command(app, context);
    add_diagnose_command(app, context);
    add_check_command(app, context);
    add_calibrate_command(app, context);
    add_history_command(app, context);
    add_bisect_command(app, context);
    add_bisect_step_command(app, context);
    add_levers_command(app, context);
    refuse_unknown_subcommand(app, argc, argv);
    try {
      app.parse(argc, argv);
    } catch (const CLI::Success& success) {
      return app.exit(success);
    } catch (const CLI::ParseError& error) {
      std::cerr << "warp-compile-probe: " << error.what() << "\n";
      std::cerr << "Run 'warp-compile-probe --help' for usage.\n";
      return kUsage;
    }
    return context.exit_code;
  } catch (const wcp::Interrupted& interrupted) {
    std::cerr << "warp-compile-probe: " << interrupted.what() << "; the target was stopped and scratch files removed\n";
    return 128 + interrupted.signal;
  } catch (const wcp::UsageError& error) {
    std::cerr << "warp-compile-probe: error: " << error.what() << "\n";
    return kUsage;
  } catch (const wcp::HistoryError& error) {
    std::cerr << "warp-compile-probe: error: " << error.what() << "\n";
    return kHistoryRefused;
  } catch (const wcp::RunError& error) {
    std::cerr << "warp-compile-probe: error: " << error.what() << "\n";
    return kFailed;
  } catch (const std::exception& error) {
    std::cerr << "warp-compile-probe: internal error: " << error.what()
              << "\nThis is a bug in warp-compile-probe; please report it with the command line that caused it.\n";
    return kInternal;
  }
}
