#pragma once
// CS-9's question about one module="unique" kernel (internal to analysis/): is it made from
// constants or from data at run time?
//
// A module="unique" kernel is worth merging only when its code is the same whatever the run: made
// from constants. Made from data at run time, module="unique" is what keeps it from rebuilding its
// neighbours. The evidence, strongest first: several contents of one kernel in one run, a hash
// that moved between samples, a captured argument of its factory (all: data); captured nothing or
// only literals, with the same hash in every sample (constants). Anything less cannot tell.
#include <cstddef>
#include <string>

#include "facts/ownership.h"
#include "model/report.h"

namespace wcp::analysis {

enum class UniqueOrigin { constants, data, unknown };

struct UniqueModule {
  const ModuleEvent* event = nullptr;  // its first cold build
  std::string kernel;                  // the kernel key the module is named after
  const KernelInfo* snapshot = nullptr;
  ModuleOwnership owner;
  UniqueOrigin origin = UniqueOrigin::unknown;
  std::string why;  // the evidence for `origin`, in words
};

// Sets `module.origin` and `module.why`; `contents_in_run` is how many unique modules of its
// kernel with different content this run built.
void classify_origin(const Report& report, std::size_t contents_in_run, UniqueModule& module);

}  // namespace wcp::analysis
