#include "model/hash_stability.h"

#include <algorithm>
#include <cctype>

#include "io/name_table.h"

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

namespace {

constexpr NameTable<HashCause, 4> kHashCauseNames{{{HashCause::stable, "stable"},
                                                   {HashCause::python_hash_seed, "python_hash_seed"},
                                                   {HashCause::checkout_path, "checkout_path"},
                                                   {HashCause::per_run, "per_run"}}};

}  // namespace

std::string to_string(HashCause cause) {
  return std::string(name_of(kHashCauseNames, cause));
}

std::optional<HashCause> hash_cause_from_string(std::string_view text) {
  return value_named(kHashCauseNames, text);
}

}  // namespace wcp
