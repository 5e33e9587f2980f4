#pragma once
// Compiled versus launched, per module: every kernel of a loaded module is code-generated and
// compiled, whether or not the program launches it. This pairs the kernels each module was
// built with (the instrumentation's snapshot at its last build) with the launch record, and
// weighs each kernel by its share of the module's generated source (the cache inventory).
//
// The weight is an estimate of the build time a kernel costs: compile time grows with the
// source, but not exactly in proportion. Verify any saving it suggests with `compare`.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace wcp {

struct KernelUse {
  std::string key;
  std::string file;
  int line = 0;
  std::string qualname;
  std::string python_module;      // the function's __module__
  bool launched = false;          // launched forward in this run (any process)
  bool launched_adjoint = false;  // launched with adjoint=True (or by a tape's backward pass)
  bool backward_generated = false;
  // Its generated source at the module's last build (all its generic instances together); absent
  // when the cache had no source for that build.
  std::optional<std::uint64_t> forward_bytes;
  std::optional<std::uint64_t> backward_bytes;
  std::uint64_t bytes() const { return forward_bytes.value_or(0) + backward_bytes.value_or(0); }
  bool ran() const { return launched || launched_adjoint; }  // launched forward or adjoint in this run
};

struct ModuleUse {
  std::string name;
  std::string device;
  int builds = 0;                  // compiled loads of the module in the cold pass (every hash and block_dim)
  double build_ms = 0.0;           // their summed load time
  bool built_pch = false;          // one of them also built the precompiled header (its time is not the module's)
  std::vector<KernelUse> kernels;  // as built the last time
  std::optional<std::uint64_t> source_bytes;  // of the last build
  // Per build, the share of its generated source that belongs to kernels this run never launched,
  // and the estimated ms that share cost (the build's ms × the share). Builds that also made
  // the precompiled header are left out of the ms (their time is mostly the header). A module
  // none of whose kernels ran costs its whole build.
  std::optional<double> unlaunched_share;
  std::optional<double> unlaunched_ms;

  std::size_t launched() const;
  std::size_t never_launched() const;
  std::size_t launched_adjoint() const;
};

// Modules with a kernel snapshot, in the order they were first built; empty when the report
// has no launch record (then nothing can be said about what was launched).
std::vector<ModuleUse> kernel_usage(const Report& report);

// Which of a module's generated kernels (mangled "<key>_<8 hex>") belongs to which kernel key:
// the longest key that the mangled name starts with, followed by '_' or the end.
std::optional<std::string> kernel_key_of(const std::string& mangled, const std::vector<std::string>& keys);

}  // namespace wcp
