#include "analysis/mechanisms.h"

#include <stdexcept>

namespace wcp::analysis {

const std::vector<Mechanism>& mechanisms() {
  // A function-local constant rather than a global: built once, never mutated.
  static const std::vector<Mechanism> catalogue{
      {"CS-1", "Kernel defined after its module loaded", "cs-1-kernel-defined-after-its-module-loaded"},
      {"CS-2", "Kernel cache not reused", "cs-2-kernel-cache-not-reused"},
      {"CS-3", "Module options set after load", "cs-3-module-options-set-after-load"},
      {"CS-4", "Module boundaries too granular", "cs-4-module-boundaries-too-granular"},
      {"CS-5", "One module built at several CUDA block_dims", "cs-5-one-module-built-at-several-cuda-block_dims"},
      {"CS-6", "Generic kernel instance added after load", "cs-6-generic-kernel-instance-added-after-load"},
      {"CS-7", "LTO-dominated build", "cs-7-lto-dominated-build"},
      {"CS-8", "Concurrent first CPU load race", "cs-8-concurrent-first-cpu-load-race"},
      {"CS-9", "module=\"unique\" on stable kernels", "cs-9-moduleunique-on-stable-kernels"},
      {"CS-10", "Backward code nobody uses", "cs-10-backward-code-nobody-uses"},
      {"CS-11", "Unroll budget inflating generated source", "cs-11-unroll-budget-inflating-generated-source"},
      {"CS-12", "Precompiled header", "cs-12-precompiled-header"},
      {"CS-13", "Independent modules built one at a time", "cs-13-independent-modules-built-one-at-a-time"},
      {"closure-churn", "Kernel factory re-creates kernels after load (closure churn)",
       "closure-churn-kernels-re-created-from-one-source-line"},
      {"identity-churn", "Module rebuilt with a new hash (cause not recorded)",
       "cs-1-kernel-defined-after-its-module-loaded"},
      {"config-deadline", "warp.config option set after its module was created",
       "config-deadline-warpconfig-option-set-after-its-module-was-created"},
  };
  return catalogue;
}

const Mechanism& mechanism(std::string_view id) {
  for (const auto& entry : mechanisms()) {
    if (entry.id == id) return entry;
  }
  throw std::out_of_range("unknown mechanism id " + std::string(id));
}

std::string doc_link(std::string_view id) {
  return "docs/mechanisms.md#" + std::string(mechanism(id).anchor);
}

}  // namespace wcp::analysis
