#pragma once
// Each subcommand lives in its own file and registers itself on the root app. When the
// user picks it, its callback runs the command and stores the exit code in the context.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

#include "cli/cli_context.h"

namespace wcp::cli {

// A subcommand and the arguments its options fill (they live as long as the app).
template <class Arguments>
struct RegisteredCommand {
  CLI::App* command;
  std::shared_ptr<Arguments> arguments;
};

// Adds subcommand `name`; when the user picks it, `run` runs and its exit code is kept.
template <class Arguments>
RegisteredCommand<Arguments> register_command(CLI::App& root, CliContext& context, const std::string& name,
                                              const std::string& description,
                                              int (*run)(const Arguments&, CliContext&)) {
  auto arguments = std::make_shared<Arguments>();
  CLI::App* command = root.add_subcommand(name, description);
  command->callback([arguments, &context, run] { context.exit_code = run(*arguments, context); });
  return {command, arguments};
}

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
void add_levers_command(CLI::App& root, CliContext& context);

}  // namespace wcp::cli
