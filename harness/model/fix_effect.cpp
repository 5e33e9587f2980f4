#include "model/fix_effect.h"

#include <array>
#include <utility>

#include "io/name_table.h"

namespace wcp {
namespace {

constexpr std::array<std::string_view, 8> kOptions{"fast_math", "mode",      "enable_backward", "max_unroll",
                                                   "lineinfo",  "block_dim", "fuse_fp",         "verify_fp"};
// Options that change how a module is built (where, in which format, with which header) and
// never its code or results.
constexpr std::array<std::string_view, 3> kBuildOnly{"use_precompiled_headers", "cuda_output", "compile_time_trace"};

// In kOptions order. Read from Warp's build (warp/_src/context.py, build.py): what each value
// does to the generated code or the launch.
constexpr std::array<std::string_view, 8> kEffects{
    "changes floating-point results on CUDA (fast approximate division, square root and transcendentals, "
    "denormals flushed to zero); on the CPU it may change nothing",
    "changes the generated code: \"debug\" builds unoptimised kernels with bounds and NaN checks (slower kernels, "
    "checks that can stop the program), \"release\" drops them",
    "changes the set of kernels built: False generates no adjoint (backward) code, so wp.Tape.backward() and "
    "adjoint launches of these kernels no longer produce gradients",
    "changes the generated code: fixed-size loops up to this bound are unrolled, which moves kernel speed (results "
    "stay the same)",
    "changes debug information only: CUDA kernels carry (or lose) source-line info for profilers and debuggers; "
    "results stay the same",
    "changes the launch: threads per CUDA block, which moves kernel speed and changes what tile and shared-memory "
    "kernels compute with",
    "changes floating-point results: multiply-adds are fused (or no longer fused) into single-rounding FMAs",
    "changes run time and control flow: every kernel is followed by a NaN/Inf check that reports and stops",
};

constexpr NameTable<FixEffect, 2> kFixEffects{{
    {FixEffect::keeps_behaviour, "keeps behaviour"},
    {FixEffect::changes_behaviour, "changes behaviour"},
}};

}  // namespace

std::string_view to_string(FixEffect effect) {
  return name_of(kFixEffects, effect);
}

std::optional<std::string_view> option_behaviour(std::string_view option) {
  for (std::size_t i = 0; i < kOptions.size(); ++i) {
    if (kOptions[i] == option) return kEffects[i];
  }
  return std::nullopt;
}

std::span<const std::string_view> behaviour_options() {
  return kOptions;
}

FixBehaviour setting_option(std::string_view option) {
  const std::string name(option);
  if (const auto effect = option_behaviour(option))
    return {FixEffect::changes_behaviour, name + " " + std::string(*effect)};
  for (const auto build_only : kBuildOnly) {
    if (build_only == option)
      return {FixEffect::keeps_behaviour, name + " changes how the module is built, not what it computes"};
  }
  // Not catalogued: assume it can matter rather than promise it does not.
  return {FixEffect::changes_behaviour,
          name +
              ": what it changes besides build time is not known to this tool; compare the program's results with "
              "and without it"};
}

}  // namespace wcp
