#include "render/cuda_build_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

#include "render/report_text.h"
#include "render/wrap.h"

namespace wcp::render {
namespace {

constexpr std::size_t kNamedOnScreen = 3;
constexpr std::size_t kKernelTableRows = 15;

std::string ms_or_dash(const std::optional<double>& ms) {
  return ms ? fmt::format("{:.0f}", *ms) : "-";
}

std::string kernel_cost(const RankedCudaKernel& kernel) {
  std::vector<std::string> parts;
  if (kernel.backward_ms) parts.push_back(fmt::format("backward {:.0f} ms", *kernel.backward_ms));
  if (kernel.forward_ms) parts.push_back(fmt::format("forward {:.0f} ms", *kernel.forward_ms));
  return fmt::format("{} ({}) {}", kernel.kernel, kernel.module, fmt::join(parts, " + "));
}

std::string module_label(const CudaModuleBuild& build) {
  return fmt::format("{} {}{}", build.module, build.hash,
                     build.block_dim > 0 ? fmt::format(" block_dim {}", build.block_dim) : std::string());
}

std::string arch_headline(const CudaArchRanking& arch) {
  if (arch.modules.empty()) return fmt::format("sm_{}: no process loaded a module, so nothing was compiled", arch.arch);
  std::string line = fmt::format("sm_{} CPU {}", arch.arch, median_mad(arch.cpu_ms, "not timed in every sample"));
  line += fmt::format(", {} module(s) built", arch.modules_built);
  if (arch.modules_failed > 0) line += fmt::format(", {} FAILED", arch.modules_failed);
  if (arch.output_bytes)
    line += fmt::format(", {:.1f} KiB of output", static_cast<double>(*arch.output_bytes) / 1024.0);
  return line;
}

void render_arch_summary(const CudaArchRanking& arch, std::ostream& out) {
  print_wrapped(arch_headline(arch), "  ", "    ", out);
  if (!arch.kernels.empty()) {
    std::vector<std::string> named;
    for (std::size_t at = 0; at < std::min(kNamedOnScreen, arch.kernels.size()); ++at)
      named.push_back(kernel_cost(arch.kernels[at]));
    print_wrapped(fmt::format("{}", fmt::join(named, "; ")), "    Costliest kernels: ", "      ", out);
  } else if (!arch.kernels_unavailable.empty()) {
    print_wrapped(arch.kernels_unavailable, "    Per-kernel cost unavailable: ", "      ", out);
  }
  std::vector<std::string> modules;
  for (const auto* build : arch.modules) {
    if (modules.size() == kNamedOnScreen) break;
    if (build->error.empty() && build->cpu_ms)
      modules.push_back(fmt::format("{} {:.0f} ms", module_label(*build), *build->cpu_ms));
  }
  if (!modules.empty())
    print_wrapped(fmt::format("{}", fmt::join(modules, ", ")), "    Costliest modules: ", "      ", out);
  if (arch.headers_ms_per_module) {
    print_wrapped(fmt::format("{:.0f} ms per module × {} module(s), measured in each module's trace",
                              *arch.headers_ms_per_module, arch.modules_with_headers),
                  "    Warp's headers: ", "      ", out);
  }
  if (arch.trace_wall_over_cpu && *arch.trace_wall_over_cpu > kContendedTraceRatio) {
    print_wrapped(fmt::format("NVRTC's clock ran up to {:.1f}× its thread's CPU time: the builds waited for a core "
                              "(a busy machine, or more builds than cores), so the kernel and phase times above "
                              "overstate the work; their order and shares hold, and the CPU times do not inflate",
                              *arch.trace_wall_over_cpu),
                  "    Note: ", "      ", out);
  }
  for (const auto* build : arch.modules) {
    if (!build->error.empty()) print_wrapped(build->error, "    FAILED " + module_label(*build) + ": ", "      ", out);
  }
}

std::string run_line(const CudaBuildRanking& ranking) {
  std::string line = "CUDA build (Warp's NVRTC, no GPU; after the program's work, left out of its cold wall)";
  if (ranking.added_wall_ms)
    line += fmt::format(": {:.2f} s at exit, {} build(s) at once", *ranking.added_wall_ms / 1000.0, ranking.workers);
  return line;
}

}  // namespace

void render_cuda_build_summary(const CudaBuildRanking& ranking, std::ostream& out) {
  if (!ranking.unavailable.empty()) {
    print_wrapped(ranking.unavailable, "CUDA build unavailable: ", "  ", out);
    return;
  }
  print_wrapped(run_line(ranking), "", "  ", out);
  for (const auto& arch : ranking.archs) render_arch_summary(arch, out);
}

void render_cuda_build_text(const CudaBuildRanking& ranking, std::ostream& out) {
  out << "\n";
  render_cuda_build_summary(ranking, out);
  if (!ranking.unavailable.empty()) return;
  for (const auto& arch : ranking.archs) {
    out << fmt::format("\n  sm_{} modules (ms of the compiling thread; phases from NVRTC's trace)\n", arch.arch);
    out << fmt::format("    {:<44} {:>5} {:>8} {:>9} {:>8} {:>9} {:>8} {:>7} {:>10}\n", "module", "out", "cpu",
                       "front end", "headers", "optimizer", "codegen", "ptxas", "bytes");
    for (const auto* build : arch.modules) {
      const auto& phases = build->phases;
      out << fmt::format("    {:<44} {:>5} {:>8} {:>9} {:>8} {:>9} {:>8} {:>7} {:>10}\n", module_label(*build),
                         build->output_kind.empty() ? "-" : build->output_kind, ms_or_dash(build->cpu_ms),
                         ms_or_dash(phases.front_end_ms), ms_or_dash(phases.headers_ms),
                         ms_or_dash(phases.optimizer_ms), ms_or_dash(phases.codegen_ms), ms_or_dash(phases.ptxas_ms),
                         build->output_bytes ? std::to_string(*build->output_bytes) : "-");
      if (!build->trace_unavailable.empty() && build->error.empty())
        print_wrapped(build->trace_unavailable, "      no trace: ", "        ", out);
    }
    if (arch.kernels.empty()) continue;
    out << fmt::format("\n  sm_{} kernels, costliest first (optimizer + codegen + ptxas, ms)\n", arch.arch);
    out << fmt::format("    {:<40} {:<28} {:>9} {:>9} {:>9}\n", "kernel", "module", "forward", "backward", "total");
    for (std::size_t at = 0; at < std::min(kKernelTableRows, arch.kernels.size()); ++at) {
      const auto& kernel = arch.kernels[at];
      out << fmt::format("    {:<40} {:<28} {:>9} {:>9} {:>9.0f}\n", kernel.kernel, kernel.module,
                         ms_or_dash(kernel.forward_ms), ms_or_dash(kernel.backward_ms), kernel.total_ms);
    }
    if (arch.kernels.size() > kKernelTableRows)
      out << fmt::format("    … and {} more (the JSON report has them all)\n", arch.kernels.size() - kKernelTableRows);
  }
}

}  // namespace wcp::render
