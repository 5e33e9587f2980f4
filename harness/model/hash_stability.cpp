#include "model/hash_stability.h"

#include <algorithm>
#include <cctype>

namespace wcp {
namespace {

// hex(hash(source))[-8:] on Warp < 1.17 can keep the "x" of "0x" for a small hash.
bool is_hex_suffix(std::string_view text) {
  return (text.size() == 8 || text.size() == 16) && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == 'x';
         });
}

}  // namespace

std::string module_group(const std::string& name) {
  const auto cut = name.rfind('_');
  if (cut == std::string::npos || cut == 0 || !is_hex_suffix(std::string_view(name).substr(cut + 1))) return name;
  return name.substr(0, cut) + "_*";
}

std::string to_string(HashCause cause) {
  switch (cause) {
    case HashCause::stable:
      return "stable";
    case HashCause::python_hash_seed:
      return "python_hash_seed";
    case HashCause::checkout_path:
      return "checkout_path";
    case HashCause::per_run:
      return "per_run";
  }
  return "stable";
}

std::optional<HashCause> hash_cause_from_string(std::string_view text) {
  for (const HashCause cause :
       {HashCause::stable, HashCause::python_hash_seed, HashCause::checkout_path, HashCause::per_run}) {
    if (to_string(cause) == text) return cause;
  }
  return std::nullopt;
}

}  // namespace wcp
