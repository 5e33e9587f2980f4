// `diagnose REPORT.json [--verbose | --explain ID] [--boundaries] [--json OUT]`: explain a saved measure report.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>
#include <string>
#include <vector>

#include "analysis/diagnose.h"
#include "cli/commands.h"
#include "cli/fixed_cost_input.h"
#include "cli/option_table.h"
#include "cli/outputs.h"
#include "codec/report_json.h"
#include "errors.h"
#include "facts/cuda_build_ranking.h"
#include "io/file_io.h"
#include "render/cuda_build_text.h"
#include "render/diagnosis_text.h"
#include "render/format.h"

namespace wcp::cli {
namespace {

struct DiagnoseArguments {
  std::string report_path;
  std::string json_path;
  std::string explain_id;  // "" unless --explain
  bool boundaries = false;
  bool verbose = false;
};

// The mechanism --explain names; a code the catalogue does not have is a usage error.
std::optional<Mechanism> explained_mechanism(const std::string& id) {
  if (id.empty()) return std::nullopt;
  if (const auto mechanism = mechanism_from_code(id)) return mechanism;
  std::vector<std::string> codes;
  for (const auto& entry : mechanism_catalogue()) codes.emplace_back(entry.code);
  throw UsageError(fmt::format("--explain: unknown mechanism id '{}' (one of: {})", id, fmt::join(codes, ", ")));
}

int run_diagnose(const DiagnoseArguments& arguments, CliContext& context) {
  const auto explained = explained_mechanism(arguments.explain_id);
  if (!arguments.json_path.empty()) require_writable_destination(arguments.json_path, "--json");
  const Report report = load_report(arguments.report_path);
  const analysis::DiagnoseInputs inputs = calibrated_inputs(report, context);
  const analysis::Diagnosis diagnosis = analysis::diagnose(report, inputs);
  if (explained) {
    render::render_mechanism_text(diagnosis, *explained, context.out);
  } else if (arguments.verbose) {
    render::write(diagnosis, render::Format::text, context.out);
  } else {
    render::render_diagnosis_summary_text(diagnosis, context.out);
  }
  // The CUDA build ranked (`measure --cuda-arch`): the costliest kernels and modules per arch.
  if (const auto cuda = rank_cuda_build(report); cuda && !explained) {
    if (arguments.verbose) {
      render::render_cuda_build_text(*cuda, context.out);
    } else {
      context.out << '\n';
      render::render_cuda_build_summary(*cuda, context.out);
    }
  }
  if (arguments.boundaries) {
    render::render_kernel_usage_text(diagnosis.kernel_usage, context.out);
    if (diagnosis.boundaries) {
      render::render_boundaries_text(*diagnosis.boundaries, context.out);
    } else {
      context.out << "\nModule boundaries: no proposal (needs the instrumentation's kernel snapshots and a launch "
                     "record)\n";
    }
  }
  write_outputs(diagnosis, {{arguments.json_path, render::Format::json}});
  return kOk;
}

}  // namespace

void add_diagnose_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<DiagnoseArguments>(
      root, context, "diagnose", "Explain why a measured program compiles what it compiles", run_diagnose);
  add_options(
      *command,
      {{"report",
        &arguments->report_path,
        "A report written by `measure --json` (or the original probe)",
        {.required = true, .check = CLI::ExistingFile}},
       {"--json", &arguments->json_path, "Also write the diagnosis as JSON to this path"},
       {"--boundaries", &arguments->boundaries,
        "Also print compiled versus launched kernels per module and a module-boundary proposal"},
       {"--verbose", &arguments->verbose,
        "Print the full diagnosis: every finding's evidence, cost, fix, behaviour and limits, the option receipts, "
        "facts, and why each mechanism was ruled out or not checked"},
       {"--explain",
        &arguments->explain_id,
        "Print the full text of one mechanism (CS-10, option-never-arrived, ...) instead",
        {.excludes = "--verbose"}}});
}

}  // namespace wcp::cli
