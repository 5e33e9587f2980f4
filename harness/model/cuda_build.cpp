#include "model/cuda_build.h"

#include <initializer_list>

namespace wcp {
namespace {

// Missing is not zero: the sum of no figures is no figure.
std::optional<double> sum_of_present(std::initializer_list<std::optional<double>> figures) {
  std::optional<double> sum;
  for (const auto& figure : figures) {
    if (figure) sum = sum.value_or(0.0) + *figure;
  }
  return sum;
}

}  // namespace

std::optional<double> CudaKernelCost::forward_ms() const {
  return sum_of_present({forward_optimizer_ms, forward_codegen_ms, forward_ptxas_ms});
}

std::optional<double> CudaKernelCost::backward_ms() const {
  return sum_of_present({backward_optimizer_ms, backward_codegen_ms, backward_ptxas_ms});
}

std::optional<double> CudaKernelCost::total_ms() const {
  return sum_of_present({forward_ms(), backward_ms()});
}

std::optional<double> CudaBuildRun::cpu_ms_for(int arch) const {
  std::optional<double> sum;
  for (const auto& module : modules) {
    if (module.arch == arch && module.cpu_ms) sum = sum.value_or(0.0) + *module.cpu_ms;
  }
  return sum;
}

}  // namespace wcp
