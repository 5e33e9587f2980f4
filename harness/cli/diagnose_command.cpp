// `diagnose REPORT.json [--boundaries] [--json OUT]`: explain a saved measure report.
#include <sstream>

#include "analysis/diagnose.h"
#include "cli/commands.h"
#include "cli/fixed_cost_input.h"
#include "io/file_io.h"
#include "model/report_json.h"
#include "render/diagnosis_text.h"
#include "render/format.h"

namespace wcp::cli {
namespace {

struct DiagnoseArguments {
  std::string report_path;
  std::string json_path;
  bool boundaries = false;
};

int run_diagnose(const DiagnoseArguments& arguments, CliContext& context) {
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  const Report report = load_report(arguments.report_path);
  const analysis::DiagnoseInputs inputs = calibrated_inputs(report, context);
  const analysis::Diagnosis diagnosis = analysis::diagnose(report, inputs);
  render::write(diagnosis, render::Format::text, context.out);
  if (arguments.boundaries) {
    render::render_kernel_usage_text(diagnosis.kernel_usage, context.out);
    if (diagnosis.boundaries) {
      render::render_boundaries_text(*diagnosis.boundaries, context.out);
    } else {
      context.out << "\nModule boundaries: no proposal (needs the instrumentation's kernel snapshots and a launch "
                     "record)\n";
    }
  }
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
  command->add_flag("--boundaries", arguments->boundaries,
                    "Also print compiled versus launched kernels per module and a module-boundary proposal");
  command->callback([arguments, &context] { context.exit_code = run_diagnose(*arguments, context); });
}

}  // namespace wcp::cli
