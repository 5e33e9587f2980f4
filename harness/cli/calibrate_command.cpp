// `warp-compile-probe calibrate`: measures this machine's fixed per-module and per-kernel
// CUDA compile cost with NVRTC and stores it for the other subcommands.
#include <chrono>
#include <filesystem>
#include <optional>
#include <ostream>
#include <string>

#include "calibrate/calibration.h"
#include "calibrate/calibration_fixtures.h"
#include "calibrate/calibration_run.h"
#include "calibrate/gpu_target.h"
#include "calibrate/machine_info.h"
#include "calibrate/nvrtc_library.h"
#include "calibrate/warp_cpu_run.h"
#include "calibrate/warp_native_dir.h"
#include "cli/commands.h"
#include "cli/option_table.h"
#include "errors.h"
#include "measure/progress.h"
#include "reference/nvrtc_reference.h"
#include "reference/warp_cpu_reference.h"
#include "render/calibration_text.h"

namespace wcp::cli {
namespace {

struct CalibrateArguments {
  std::string arch = "sm_90";
  int samples = 5;
  std::string json_out;
  std::string python;
  std::string warp_native_dir;
  std::string nvrtc_library;
  std::string fixtures_dir;
  bool warp_cpu = false;
  bool no_cuda = false;
};

// `samples` reference samples of one runner, stored for budgets to fall back on and to
// cross-check a run's own reference against. A failed sample fails the calibration.
calibrate::StoredReference take_stored_reference(reference::ReferenceRunner& runner, int samples, CliContext& context) {
  measure::SilentProgress silent;
  std::vector<ReferenceSample> taken;
  for (int index = 1; index <= samples; ++index) {
    context.err << "reference " << to_string(runner.kind()) << ": sample " << index << "/" << samples << std::endl;
    taken.push_back(runner.take(index, context.interrupts, silent));
    if (!taken.back().failure.empty()) throw RunError(taken.back().failure);
  }
  return {runner.name(), runner.description(), *reference_cost(taken)};
}

template <typename T = std::filesystem::path>
std::optional<T> optional_of(const std::string& value) {
  if (value.empty()) return std::nullopt;
  return T(value);
}

int run_calibrate(const CalibrateArguments& arguments, CliContext& context) {
  using namespace wcp::calibrate;
  const auto started = std::chrono::steady_clock::now();
  // Resolve every input before the first compile, so a usage mistake costs no waiting.
  const auto output_path =
      arguments.json_out.empty() ? default_calibration_path() : std::filesystem::path(arguments.json_out);
  const auto progress = [&context](const std::string& line) { context.err << line << std::endl; };
  const std::string python = choose_python(optional_of<std::string>(arguments.python));
  Calibration calibration;
  // NVRTC stays loaded until the command ends: unloading it mid-process is not something its
  // runtime expects (its exit-time clean-up then crashes).
  std::optional<NvrtcLibrary> nvrtc_holder;
  if (!arguments.no_cuda) {
    const auto& nvrtc = nvrtc_holder.emplace(NvrtcLibrary::load({optional_of(arguments.nvrtc_library), python}));
    CalibrationInputs inputs;
    inputs.target = parse_gpu_target(arguments.arch, nvrtc.supported_archs());
    inputs.fixtures = load_fixture_texts(find_fixtures_dir(optional_of(arguments.fixtures_dir)));
    inputs.warp_native_dir = find_warp_native_dir(optional_of(arguments.warp_native_dir), python, context.interrupts);
    inputs.samples = arguments.samples;
    calibration = run_calibration(nvrtc, inputs, progress, &context.interrupts);
    reference::NvrtcReferenceInputs reference_inputs;
    reference_inputs.python = python;
    reference_inputs.warp_native_dir = inputs.warp_native_dir;
    reference_inputs.nvrtc_library = optional_of(arguments.nvrtc_library);
    reference_inputs.fixtures_dir = optional_of(arguments.fixtures_dir);
    calibration.cuda.reference = take_stored_reference(
        *reference::NvrtcReference::open(reference_inputs, context.interrupts), arguments.samples, context);
  } else {
    // Keep what an earlier CUDA calibration found; only the CPU section is renewed.
    if (auto existing = load_calibration(output_path)) calibration = *existing;
    calibration.machine = current_machine();
    calibration.created_at = utc_timestamp_now();
  }
  if (arguments.warp_cpu) {
    calibration.warp_cpu = run_warp_cpu_calibration({python, arguments.samples}, context.interrupts, progress);
    reference::WarpCpuReference runner(python);
    calibration.warp_cpu->reference = take_stored_reference(runner, arguments.samples, context);
  }
  // The wall time a user waits for, locating Warp included, not just the compiles.
  calibration.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  write_calibration(calibration, output_path);
  render::render_calibration_text(calibration, context.out);
  context.out << "Calibration written to " << std::filesystem::absolute(output_path).string() << "\n";
  return kOk;
}

}  // namespace

void add_calibrate_command(CLI::App& root, CliContext& context) {
  const auto [command, arguments] = register_command<CalibrateArguments>(
      root, context, "calibrate", "Measure this machine's fixed per-module and per-kernel CUDA compile cost with NVRTC",
      run_calibrate);
  add_options(
      *command,
      {{"--arch", &arguments->arch, "GPU target: sm_XX compiles to CUBIN, compute_XX to PTX", {.show_default = true}},
       {"--samples",
        &arguments->samples,
        "Timed compiles per fixture, after one discarded warm-up",
        {.show_default = true, .check = CLI::Range(1, 1000)}},
       {"--json", &arguments->json_out,
        "Where to write the calibration (default: $XDG_CACHE_HOME/warp-compile-probe/calibration-<host>.json)"},
       {"--python", &arguments->python,
        "Python interpreter with warp-lang, used to find Warp's native headers (default: $WCP_PYTHON, else python3)"},
       {"--warp-native-dir",
        &arguments->warp_native_dir,
        "Warp's native/ folder (holds builtin.h); skips asking Python",
        {.check = CLI::ExistingDirectory}},
       {"--nvrtc-library",
        &arguments->nvrtc_library,
        "Path of libnvrtc.so (default: $WCP_NVRTC, else $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, the loader's "
        "search, then the nvidia-cuda-nvrtc wheel in the tool's own environment, then in the venv of --python)",
        {.check = CLI::ExistingFile}},
       {"--fixtures-dir",
        &arguments->fixtures_dir,
        "Folder holding the CUDA calibration fixtures",
        {.check = CLI::ExistingDirectory}},
       {"--warp-cpu", &arguments->warp_cpu,
        "Also calibrate Warp's CPU backend (generated Warp modules through the isolated measure runs)"},
       {"--no-cuda", &arguments->no_cuda, "Skip the NVRTC part (with --warp-cpu)", {.needs = "--warp-cpu"}}});
}

}  // namespace wcp::cli
