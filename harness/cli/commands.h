#pragma once
// Each subcommand lives in its own file and registers itself on the root app. When the
// user picks it, its callback runs the command and stores the exit code in the context.
#include <CLI/CLI.hpp>

#include "cli/cli_context.h"

namespace wcp::cli {

void add_measure_command(CLI::App& root, CliContext& context);
void add_compare_command(CLI::App& root, CliContext& context);
void add_diagnose_command(CLI::App& root, CliContext& context);
void add_check_command(CLI::App& root, CliContext& context);
void add_calibrate_command(CLI::App& root, CliContext& context);
void add_ab_command(CLI::App& root, CliContext& context);
void add_report_command(CLI::App& root, CliContext& context);
void add_history_command(CLI::App& root, CliContext& context);
void add_bisect_command(CLI::App& root, CliContext& context);
void add_bisect_step_command(CLI::App& root, CliContext& context);

}  // namespace wcp::cli
