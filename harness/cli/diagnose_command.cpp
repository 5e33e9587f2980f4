// `diagnose REPORT.json [--json OUT]`: explain a saved measure report.
#include "analysis/diagnose.h"
#include "calibrate/calibration.h"
#include "cli/commands.h"
#include "errors.h"
#include "render/diagnosis_text.h"
#include "report/atomic_file.h"
#include "report/report_json.h"

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
  try {
    inputs.calibration = calibrate::load_default_calibration();
  } catch (const UsageError& error) {  // estimates fall back to this run's smallest module
    context.err << "warp-compile-probe: warning: calibration ignored: " << error.what() << "\n";
  }
  const analysis::Diagnosis diagnosis = analysis::diagnose(report, inputs);
  if (!arguments.json_path.empty()) {
    write_file_atomically(arguments.json_path, render::diagnosis_to_json(diagnosis).dump(2) + "\n");
  }
  render::render_diagnosis_text(diagnosis, context.out);
  return kOk;
}

}  // namespace

void add_diagnose_command(CLI::App& root, CliContext& context) {
  auto arguments = std::make_shared<DiagnoseArguments>();
  CLI::App* command = root.add_subcommand("diagnose", "Explain why a measured program compiles what it compiles");
  command->add_option("report", arguments->report_path, "A report written by `measure --json`")->required();
  command->add_option("--json", arguments->json_path, "Also write the diagnosis as JSON to this path");
  command->callback([arguments, &context] { context.exit_code = run_diagnose(*arguments, context); });
}

}  // namespace wcp::cli
