// `diagnose REPORT.json [--json OUT]`: explain a saved measure report.
#include <sstream>

#include "analysis/diagnose.h"
#include "cli/commands.h"
#include "cli/fixed_cost_input.h"
#include "io/file_io.h"
#include "model/report_json.h"
#include "render/format.h"

namespace wcp::cli {
namespace {

struct DiagnoseArguments {
  std::string report_path;
  std::string json_path;
};

int run_diagnose(const DiagnoseArguments& arguments, CliContext& context) {
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  const Report report = load_report(arguments.report_path);
  analysis::DiagnoseInputs inputs;
  inputs.fixed_cost = calibrated_fixed_cost(report, context);
  const analysis::Diagnosis diagnosis = analysis::diagnose(report, inputs);
  render::write(diagnosis, render::Format::text, context.out);
  if (!arguments.json_path.empty()) {
    std::ostringstream json;
    render::write(diagnosis, render::Format::json, json);
    write_file_atomically(arguments.json_path, json.str());
  }
  return kOk;
}

}  // namespace

void add_diagnose_command(CLI::App& root, CliContext& context) {
  auto arguments = std::make_shared<DiagnoseArguments>();
  CLI::App* command = root.add_subcommand("diagnose", "Explain why a measured program compiles what it compiles");
  command->add_option("report", arguments->report_path, "A report written by `measure --json` (or the original probe)")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("--json", arguments->json_path, "Also write the diagnosis as JSON to this path");
  command->callback([arguments, &context] { context.exit_code = run_diagnose(*arguments, context); });
}

}  // namespace wcp::cli
