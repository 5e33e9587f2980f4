#pragma once
// Whether two runs compiled the very same code with the very same compilers, so that their
// compile work is equal by construction and no clock is needed to say so (issue 63).
//
// Warp's module hash covers a module's kernels and functions (their source), its options and
// the config values it copies; the identity (name, hash, device, block_dim) adds where it was
// built. What the hash leaves out is the compilers and the CPU a CPU build targets, which the
// reports' build environment records (schema 15). So: the same compiled identities, each built
// as many times, on both sides and in every sample; the same Warp, CPU compiler, CUDA toolkit
// (when a CUDA module was built) and host CPU features (when a CPU module was), and the same
// precompiled-header setting (it changes a build's work, not its hash); and, as the
// proof that the hash told the truth, the same generated source and native output bytes in
// every module directory. Equal identities with different bytes are a defect to report (Warp's
// hash or this tool), never a pass.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"

namespace wcp::verdict {

enum class Sameness {
  same,                 // decided exactly: the compile work is unchanged
  identities_differ,    // some identity was built by one side only, or a different number of times
  environment_differs,  // the same identities under another Warp, compiler, toolkit or CPU
  bytes_differ,         // the same identities and environment, other bytes: a defect
  not_recorded,         // a side lacks what would decide it (an older report, unobserved loads)
};

std::string_view to_string(Sameness sameness);

struct CompileSameness {
  Sameness sameness = Sameness::not_recorded;
  std::size_t identities = 0;       // distinct compiled identities compared (the baseline's)
  std::size_t builds = 0;           // compiled loads behind them
  std::size_t modules_checked = 0;  // module directories whose bytes were compared
  // Plain words: why it is or is not decided by identity ("the same 25 identities …", "the
  // baseline report predates the build environment (schema 14)", "Warp 1.9.1 vs 1.19.0").
  std::string detail;
  std::vector<std::string> differences;  // each environment field or module whose bytes differ
  // identities_differ: the exact change beside the time, from the module directories only one
  // side wrote (schema 15 for the outputs); absent when a side's cache was not inventoried.
  struct ChangedBytes {
    std::uint64_t baseline_source = 0;
    std::uint64_t candidate_source = 0;
    std::optional<std::uint64_t> baseline_output;
    std::optional<std::uint64_t> candidate_output;
    std::size_t baseline_modules = 0;  // directories the baseline wrote and the candidate did not
    std::size_t candidate_modules = 0;
  };
  std::optional<ChangedBytes> changed_bytes;
};

CompileSameness compare_compiled_code(const Report& baseline, const Report& candidate);

// The module directories both runs wrote whose source or output digests differ.
std::set<std::string> directories_with_other_bytes(const Report& baseline, const Report& candidate);

}  // namespace wcp::verdict
