#include "codec/cuda_build_json.h"

#include <string>

#include "codec/json_codec.h"

namespace wcp {
namespace {

json cuda_phases_to_json(const CudaPhases& phases) {
  return json{{"front_end_ms", or_null(phases.front_end_ms)}, {"headers_ms", or_null(phases.headers_ms)},
              {"optimizer_ms", or_null(phases.optimizer_ms)}, {"codegen_ms", or_null(phases.codegen_ms)},
              {"ptxas_ms", or_null(phases.ptxas_ms)},         {"total_ms", or_null(phases.total_ms)}};
}

CudaPhases cuda_phases_from_json(const json& in) {
  return {get_optional<double>(in, "front_end_ms"), get_optional<double>(in, "headers_ms"),
          get_optional<double>(in, "optimizer_ms"), get_optional<double>(in, "codegen_ms"),
          get_optional<double>(in, "ptxas_ms"),     get_optional<double>(in, "total_ms")};
}

json cuda_kernel_to_json(const CudaKernelCost& kernel) {
  return json{{"kernel", kernel.kernel},
              {"mangled", kernel.mangled},
              {"forward_optimizer_ms", or_null(kernel.forward_optimizer_ms)},
              {"forward_codegen_ms", or_null(kernel.forward_codegen_ms)},
              {"forward_ptxas_ms", or_null(kernel.forward_ptxas_ms)},
              {"backward_optimizer_ms", or_null(kernel.backward_optimizer_ms)},
              {"backward_codegen_ms", or_null(kernel.backward_codegen_ms)},
              {"backward_ptxas_ms", or_null(kernel.backward_ptxas_ms)},
              {"forward_ms", or_null(kernel.forward_ms())},
              {"backward_ms", or_null(kernel.backward_ms())},
              {"total_ms", or_null(kernel.total_ms())}};
}

CudaKernelCost cuda_kernel_from_json(const json& in) {
  CudaKernelCost kernel;
  kernel.kernel = get<std::string>(in, "kernel", "");
  kernel.mangled = get<std::string>(in, "mangled", "");
  kernel.forward_optimizer_ms = get_optional<double>(in, "forward_optimizer_ms");
  kernel.forward_codegen_ms = get_optional<double>(in, "forward_codegen_ms");
  kernel.forward_ptxas_ms = get_optional<double>(in, "forward_ptxas_ms");
  kernel.backward_optimizer_ms = get_optional<double>(in, "backward_optimizer_ms");
  kernel.backward_codegen_ms = get_optional<double>(in, "backward_codegen_ms");
  kernel.backward_ptxas_ms = get_optional<double>(in, "backward_ptxas_ms");
  return kernel;  // the sums are derived, never read back
}

json cuda_module_to_json(const CudaModuleBuild& build) {
  json kernels = json::array();
  for (const auto& kernel : build.kernels) kernels.push_back(cuda_kernel_to_json(kernel));
  return json{{"pid", build.pid},
              {"module", build.module},
              {"hash", build.hash},
              {"arch", build.arch},
              {"block_dim", build.block_dim},
              {"output_kind", build.output_kind},
              {"cpu_ms", or_null(build.cpu_ms)},
              {"wall_ms", or_null(build.wall_ms)},
              {"output_bytes", or_null(build.output_bytes)},
              {"phases", cuda_phases_to_json(build.phases)},
              {"kernels", std::move(kernels)},
              {"trace_unavailable", build.trace_unavailable},
              {"error", build.error}};
}

CudaModuleBuild cuda_module_from_json(const json& in) {
  CudaModuleBuild build;
  build.pid = get<int>(in, "pid", 0);
  build.module = get<std::string>(in, "module", "");
  build.hash = get<std::string>(in, "hash", "");
  build.arch = get<int>(in, "arch", 0);
  build.block_dim = get<int>(in, "block_dim", 0);
  build.output_kind = get<std::string>(in, "output_kind", "");
  build.cpu_ms = get_optional<double>(in, "cpu_ms");
  build.wall_ms = get_optional<double>(in, "wall_ms");
  build.output_bytes = get_optional<long long>(in, "output_bytes");
  if (const auto phases = in.find("phases"); phases != in.end() && phases->is_object())
    build.phases = cuda_phases_from_json(*phases);
  json_fields::each(in, "kernels",
                    [&](const json& item, std::size_t) { build.kernels.push_back(cuda_kernel_from_json(item)); });
  build.trace_unavailable = get<std::string>(in, "trace_unavailable", "");
  build.error = get<std::string>(in, "error", "");
  return build;
}

}  // namespace

json cuda_build_to_json(const CudaBuildRun& run) {
  json modules = json::array();
  for (const auto& build : run.modules) modules.push_back(cuda_module_to_json(build));
  return json{{"archs", run.archs},
              {"unavailable", run.unavailable},
              {"workers", run.workers},
              {"added_wall_ms", or_null(run.added_wall_ms)},
              {"modules", std::move(modules)}};
}

CudaBuildRun cuda_build_from_json(const json& in) {
  CudaBuildRun run;
  run.archs = get<std::vector<int>>(in, "archs", {});
  run.unavailable = get<std::string>(in, "unavailable", "");
  run.workers = get<int>(in, "workers", 0);
  run.added_wall_ms = get_optional<double>(in, "added_wall_ms");
  json_fields::each(in, "modules",
                    [&](const json& item, std::size_t) { run.modules.push_back(cuda_module_from_json(item)); });
  return run;
}

json cuda_compile_summaries_to_json(const std::map<int, Summary>& summaries) {
  json out = json::object();
  for (const auto& [arch, summary] : summaries) {
    out[std::to_string(arch)] = json{
        {"median", summary.median}, {"mad", or_null(summary.mad)}, {"values", summary.values}, {"n", summary.count}};
  }
  return out;
}

std::map<int, Summary> cuda_compile_summaries_from_json(const json& in) {
  std::map<int, Summary> summaries;
  if (!in.is_object()) return summaries;
  for (const auto& [key, item] : in.items()) {
    int arch = 0;
    try {
      arch = std::stoi(key);
    } catch (const std::exception&) {
      throw FieldError("cuda_compile_cpu_ms: '" + key + "' is not an architecture number");
    }
    Summary summary;
    summary.median = get<double>(item, "median", 0.0);
    summary.mad = get_optional<double>(item, "mad");
    summary.values = get<std::vector<double>>(item, "values", {});
    summary.count = get<std::size_t>(item, "n", summary.values.size());
    summaries[arch] = std::move(summary);
  }
  return summaries;
}

}  // namespace wcp
