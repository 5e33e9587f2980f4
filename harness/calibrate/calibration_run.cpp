#include "calibrate/calibration_run.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include "calibrate/compile_options.h"
#include "calibrate/linear_fit.h"
#include "calibrate/nvrtc_compiler.h"
#include "stats/summary.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

#ifndef WCP_VERSION
#define WCP_VERSION "unknown"
#endif

namespace wcp::calibrate {
namespace {

using Clock = std::chrono::steady_clock;

struct PlannedCompile {
  FixtureSource fixture;
  bool precompiled_header = false;
  CompileRequest request;
  // Filled while running.
  std::vector<double> samples_ms;
  std::vector<double> cpu_ms;
  std::vector<double> front_end_ms;
  std::vector<double> back_end_ms;
  bool phases_complete = true;
  bool pch_reused = true;
};

std::vector<PlannedCompile> plan_compiles(const CalibrationInputs& inputs, const NvrtcFeatures& features,
                                          const std::filesystem::path& pch_dir) {
  const auto options = fixture_options(inputs.target, features, inputs.warp_native_dir);
  std::vector<PlannedCompile> plan;
  const auto fixtures = calibration_fixtures(inputs.fixtures);
  auto add = [&](const FixtureSource& fixture, bool pch) {
    PlannedCompile planned;
    planned.fixture = fixture;
    planned.precompiled_header = pch;
    planned.request.source = fixture.source;
    planned.request.name = fixture.name + ".cu";
    planned.request.output = inputs.target.output;
    planned.request.options = options;
    if (pch) {
      const auto extra = pch_options(pch_dir);
      planned.request.options.insert(planned.request.options.end(), extra.begin(), extra.end());
    }
    plan.push_back(std::move(planned));
  };
  for (const auto& fixture : fixtures) add(fixture, false);
  // Only modules with headers have anything to precompile.
  if (features.precompiled_headers) {
    for (const auto& fixture : fixtures) {
      if (fixture.warp_header) add(fixture, true);
    }
  }
  return plan;
}

bool is_family(const PlannedCompile& planned) { return planned.fixture.name.rfind("family_k", 0) == 0; }

// OLS over the family's medians for the model, and one fit per sample round for its spread.
CostModel fit_family(const std::vector<PlannedCompile>& plan, bool precompiled_header, int samples) {
  std::vector<double> kernels;
  std::vector<double> medians;
  std::vector<const PlannedCompile*> members;
  for (const auto& planned : plan) {
    if (!is_family(planned) || planned.precompiled_header != precompiled_header) continue;
    kernels.push_back(planned.fixture.kernels);
    medians.push_back(median(planned.samples_ms));
    members.push_back(&planned);
  }
  const auto fit = fit_line(kernels, medians);
  std::vector<double> intercepts;
  std::vector<double> slopes;
  for (int round = 0; round < samples; ++round) {
    std::vector<double> times;
    for (const auto* member : members) times.push_back(member->samples_ms.at(static_cast<size_t>(round)));
    const auto round_fit = fit_line(kernels, times);
    intercepts.push_back(round_fit.intercept);
    slopes.push_back(round_fit.slope);
  }
  CostModel cost;
  cost.fixed_ms = fit.intercept;
  cost.per_kernel_ms = fit.slope;
  cost.r_squared = fit.r_squared;
  cost.fixed_mad_ms = median_absolute_deviation(intercepts);
  cost.per_kernel_mad_ms = median_absolute_deviation(slopes);
  return cost;
}

FixtureTiming summarize_fixture(const PlannedCompile& planned) {
  FixtureTiming timing;
  timing.name = planned.fixture.name;
  timing.kernels = planned.fixture.kernels;
  timing.warp_header = planned.fixture.warp_header;
  timing.precompiled_header = planned.precompiled_header;
  timing.pch_reused = planned.precompiled_header && planned.pch_reused;
  timing.samples_ms = planned.samples_ms;
  timing.median_ms = median(planned.samples_ms);
  timing.mad_ms = median_absolute_deviation(planned.samples_ms);
  timing.cpu_median_ms = median(planned.cpu_ms);
  if (planned.phases_complete && !planned.front_end_ms.empty()) {
    timing.front_end_ms = median(planned.front_end_ms);
    timing.back_end_ms = median(planned.back_end_ms);
  }
  return timing;
}

double median_of(const std::vector<PlannedCompile>& plan, const std::string& name) {
  for (const auto& planned : plan) {
    if (planned.fixture.name == name && !planned.precompiled_header) return median(planned.samples_ms);
  }
  throw std::logic_error("calibration plan lacks fixture " + name);
}

}  // namespace

Calibration run_calibration(const NvrtcLibrary& nvrtc, const CalibrationInputs& inputs, const ProgressSink& progress,
                            InterruptWatch* interrupts) {
  if (inputs.samples < 1) throw std::invalid_argument("run_calibration: samples must be at least 1");
  const auto started = Clock::now();
  double load[1] = {};
  const bool have_load = ::getloadavg(load, 1) == 1;
  // Private PCH directories, removed with their headers however the run ends.
  const ScratchDir scratch("warp-compile-probe-pch-");
  const auto trial_dir = scratch.make_subdir("trial");
  const auto pch_dir = scratch.make_subdir("pch");

  // The feature trials also absorb the process's first compile, which pays NVRTC's one-off start-up.
  const auto features = detect_features(nvrtc, inputs.target, trial_dir);
  auto plan = plan_compiles(inputs, features, pch_dir);

  std::optional<double> pch_build_ms;
  for (int round = 0; round <= inputs.samples; ++round) {
    const bool warm_up = round == 0;
    if (progress) {
      progress(warm_up ? "calibrate: warm-up round (" + std::to_string(plan.size()) + " compiles, discarded)"
                       : "calibrate: sample round " + std::to_string(round) + "/" + std::to_string(inputs.samples));
    }
    for (auto& planned : plan) {
      if (interrupts != nullptr) interrupts->throw_if_interrupted();
      const auto outcome = compile(nvrtc, planned.request);
      const auto pch = pch_use(outcome.log);
      if (warm_up) {
        if (pch == PchUse::kCreated && !pch_build_ms) pch_build_ms = outcome.wall_ms;
        continue;
      }
      planned.samples_ms.push_back(outcome.wall_ms);
      planned.cpu_ms.push_back(outcome.cpu_ms);
      if (planned.precompiled_header && pch != PchUse::kUsed) planned.pch_reused = false;
      if (const auto phases = parse_phase_times(outcome.log)) {
        planned.front_end_ms.push_back(phases->front_end_ms);
        planned.back_end_ms.push_back(phases->back_end_ms);
      } else {
        planned.phases_complete = false;
      }
    }
  }

  Calibration calibration;
  calibration.tool_version = WCP_VERSION;
  calibration.created_at = utc_timestamp_now();
  calibration.machine = current_machine();
  if (have_load) calibration.load_average = load[0];
  auto& cuda = calibration.cuda;
  const auto version = nvrtc.version();
  cuda.nvrtc_version = version.text();
  cuda.nvrtc_library = nvrtc.path();
  cuda.arch = inputs.target.name;
  cuda.output = inputs.target.output_name();
  cuda.samples = inputs.samples;
  cuda.no_cache = features.no_cache;
  cuda.phase_timing = features.phase_timing;
  cuda.precompiled_headers = features.precompiled_headers;
  cuda.without_pch = fit_family(plan, false, inputs.samples);
  if (features.precompiled_headers) {
    cuda.with_pch = fit_family(plan, true, inputs.samples);
    cuda.pch_build_ms = pch_build_ms;
  }
  cuda.header_share_ms = median_of(plan, "warp_module") - median_of(plan, "minimal");
  for (const auto& planned : plan) {
    cuda.fixtures.push_back(summarize_fixture(planned));
    const auto& timing = cuda.fixtures.back();
    if (timing.median_ms > 0.0) cuda.max_relative_mad = std::max(cuda.max_relative_mad, timing.mad_ms / timing.median_ms);
  }
  calibration.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - started).count();
  return calibration;
}

}  // namespace wcp::calibrate
