// Temporary registrations for subcommands whose stages are still being written.
#include "cli/commands.h"
#include "errors.h"

namespace wcp::cli {
namespace {
void add_pending(CLI::App& root, const char* name, const char* help) {
  CLI::App* command = root.add_subcommand(name, help);
  command->allow_extras();
  command->callback([name] { throw UsageError(std::string(name) + " is not available yet"); });
}
}  // namespace

void add_compare_command(CLI::App& root, CliContext&) { add_pending(root, "compare", "Compare two reports"); }
void add_diagnose_command(CLI::App& root, CliContext&) { add_pending(root, "diagnose", "Explain a report"); }
}  // namespace wcp::cli
