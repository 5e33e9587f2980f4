#pragma once
// What applying a fix changes besides compile time. Advice must never quietly change what a
// program computes: every fix says whether it keeps the program's results, precision and set of
// kernels built, and where it cannot, what it changes. Options whose value alters generated code
// or launches have their effect named here, once, for every finding and renderer.
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace wcp {

enum class FixEffect {
  keeps_behaviour,    // same kernels, same code, same launches: only what is built when changes
  changes_behaviour,  // results, precision, debuggability or the kernels built change
};

std::string_view to_string(FixEffect effect);

// What changing `option` (a module option, a warp.config value modules copy, or "block_dim")
// does to the program, in one clause; nullopt for options that only change how it is built.
std::optional<std::string_view> option_behaviour(std::string_view option);

// The options option_behaviour() knows: fast_math, mode, enable_backward, max_unroll, lineinfo,
// block_dim, fuse_fp, verify_fp.
std::span<const std::string_view> behaviour_options();

// The behaviour of a fix that sets `option`: what it changes for the options above, keeps for
// options that only change how a module is built, and "not known, compare results" for the rest.
struct FixBehaviour {
  FixEffect effect = FixEffect::keeps_behaviour;
  std::string what;  // why it keeps behaviour, or what it changes
};
FixBehaviour setting_option(std::string_view option);

}  // namespace wcp
