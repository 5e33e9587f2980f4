#pragma once
// Which run of a sample produced something: the cold run in an empty private cache, or the
// warm run against the cache the cold run filled.
#include <optional>
#include <string_view>

namespace wcp {

enum class Pass { cold, warm };

constexpr std::string_view to_string(Pass pass) { return pass == Pass::cold ? "cold" : "warm"; }

constexpr std::optional<Pass> pass_from_string(std::string_view text) {
  if (text == "cold") return Pass::cold;
  if (text == "warm") return Pass::warm;
  return std::nullopt;
}

}  // namespace wcp
