#include "render/calibration_text.h"

#include "stats/noise.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <optional>
#include <ostream>

namespace wcp::render {
namespace {

using calibrate::Calibration;
using calibrate::CostModel;
using calibrate::FixtureTiming;

std::string optional_ms(const std::optional<double>& value) {
  return value ? fmt::format("{:.1f}", *value) : std::string("-");
}

const FixtureTiming* find_fixture(const Calibration& calibration, const std::string& name, bool pch) {
  for (const auto& fixture : calibration.cuda.fixtures) {
    if (fixture.name == name && fixture.precompiled_header == pch) return &fixture;
  }
  return nullptr;
}

void render_header(const Calibration& calibration, std::ostream& out) {
  const auto& cuda = calibration.cuda;
  fmt::print(out, "Compile-cost calibration for {} ({}, {} cores)\n", calibration.machine.hostname,
             calibration.machine.cpu_model, calibration.machine.cpu_cores);
  fmt::print(out, "NVRTC {} ({}), target {} ({}), {} samples per fixture after a discarded warm-up\n",
             cuda.nvrtc_version, cuda.nvrtc_library, cuda.arch, cuda.output, cuda.samples);
  if (!cuda.no_cache) {
    fmt::print(out,
               "warning: this NVRTC does not accept --no-cache; if it caches compilations in-process, "
               "samples after the first measured cache hits\n");
  }
  if (!cuda.phase_timing)
    fmt::print(out, "note: this NVRTC has no --time option, so there is no front/back-end split\n");
  if (!cuda.precompiled_headers) fmt::print(out, "note: this NVRTC has no automatic precompiled headers (-pch)\n");
}

void render_table(const Calibration& calibration, std::ostream& out) {
  fmt::print(out, "\n{:<14} {:>7} {:>4} {:>10} {:>8} {:>8} {:>13} {:>12}\n", "fixture", "kernels", "PCH", "median ms",
             "MAD ms", "CPU ms", "front end ms", "back end ms");
  for (const auto& fixture : calibration.cuda.fixtures) {
    const std::string pch = !fixture.precompiled_header ? "-" : fixture.pch_reused ? "yes" : "miss";
    fmt::print(out, "{:<14} {:>7} {:>4} {:>10.1f} {:>8.1f} {:>8.1f} {:>13} {:>12}\n", fixture.name, fixture.kernels,
               pch, fixture.median_ms, fixture.mad_ms, fixture.cpu_median_ms, optional_ms(fixture.front_end_ms),
               optional_ms(fixture.back_end_ms));
  }
}

std::string fit_line_text(const CostModel& cost) {
  return fmt::format("fixed {:.1f} ms (MAD {:.1f}) + {:.1f} ms (MAD {:.1f}) per kernel (R² {:.3f})", cost.fixed_ms,
                     cost.fixed_mad_ms, cost.per_kernel_ms, cost.per_kernel_mad_ms, cost.r_squared);
}

void render_findings(const Calibration& calibration, std::ostream& out) {
  const auto& cuda = calibration.cuda;
  if (!cuda.fixtures.empty()) {
    fmt::print(out, "\nWarp-shaped module, no precompiled header: {}\n", fit_line_text(cuda.without_pch));
  }
  if (cuda.with_pch) {
    fmt::print(out, "With automatic precompiled header:          {}\n", fit_line_text(*cuda.with_pch));
  }
  const auto* minimal = find_fixture(calibration, "minimal", false);
  const auto* warp_module = find_fixture(calibration, "warp_module", false);
  if (minimal != nullptr && warp_module != nullptr) {
    fmt::print(out,
               "Warp's runtime header: {:.1f} ms of a one-kernel Warp module's {:.1f} ms "
               "(a bare one-kernel module takes {:.1f} ms)\n",
               cuda.header_share_ms, warp_module->median_ms, minimal->median_ms);
  }
  if (cuda.with_pch) {
    fmt::print(out, "PCH effect: fixed cost {:.1f} ms without, {:.1f} ms with; building the header once took {} ms\n",
               cuda.without_pch.fixed_ms, cuda.with_pch->fixed_ms, optional_ms(cuda.pch_build_ms));
  }
  if (calibration.warp_cpu) {
    fmt::print(out, "Warp CPU backend: {}\n", fit_line_text(calibration.warp_cpu->without_pch));
    if (calibration.warp_cpu->with_pch) {
      fmt::print(out, "Warp CPU backend with PCH: {}\n", fit_line_text(*calibration.warp_cpu->with_pch));
    }
    if (calibration.warp_cpu->pch_build_ms) {
      fmt::print(out,
                 "Warp CPU precompiled header: the first module of each process also builds it, {:.1f} ms once "
                 "per process; count it separately from any module's size\n",
                 *calibration.warp_cpu->pch_build_ms);
    }
  }
  for (const auto* stored :
       {cuda.reference ? &*cuda.reference : nullptr,
        calibration.warp_cpu && calibration.warp_cpu->reference ? &*calibration.warp_cpu->reference : nullptr}) {
    if (stored == nullptr) continue;
    // A MAD not kept, or too few samples for one, is unavailable: never printed as 0.
    const Summary& cost = stored->cost_ms;
    const auto spread = measured_spread(cost);
    fmt::print(out, "Reference for cold_units: {} — {:.1f} ms, {} over {} sample(s)\n", stored->description,
               cost.median,
               cost.mad && spread ? fmt::format("MAD {:.1f} ({:.1f}%)", *cost.mad, 100.0 * *spread)
                                  : std::string("MAD unavailable"),
               cost.count);
  }
  if (cuda.fixtures.empty()) {
    fmt::print(out, "\nCalibration wall time: {:.1f} s\n", calibration.wall_ms / 1000.0);
    return;
  }
  fmt::print(out,
             "\nEvery module pays the fixed cost once before its first kernel, so merging k modules into one "
             "saves about (k − 1) × {:.1f} ms of cold compile time here ({} with Warp's default precompiled "
             "headers), while the per-kernel cost is paid either way.\n",
             cuda.without_pch.fixed_ms,
             cuda.with_pch ? fmt::format("(k − 1) × {:.1f} ms", cuda.with_pch->fixed_ms) : std::string("the same"));
  fmt::print(out, "Calibration wall time: {:.1f} s\n", calibration.wall_ms / 1000.0);
  if (cuda.max_relative_mad > calibrate::kNoisyRelativeMad) {
    fmt::print(out,
               "warning: noisy timings (a fixture's MAD reached {:.0f}% of its median{}); other work was competing "
               "for the CPU. Rerun on an idle machine or with more --samples.\n",
               cuda.max_relative_mad * 100.0,
               calibration.load_average ? fmt::format(", load average {:.1f} at the start", *calibration.load_average)
                                        : std::string());
  }
}

}  // namespace

void render_calibration_text(const Calibration& calibration, std::ostream& out) {
  if (calibration.cuda.fixtures.empty()) {
    fmt::print(out, "Compile-cost calibration for {} (CUDA/NVRTC not calibrated in this run)\n",
               calibration.machine.hostname);
    render_findings(calibration, out);
    return;
  }
  render_header(calibration, out);
  render_table(calibration, out);
  render_findings(calibration, out);
}

}  // namespace wcp::render
