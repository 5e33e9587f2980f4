#pragma once
// One table of names per enum: the word each value is written as (reports, JSON, the text) and
// read back from, so the writer and the reader of a name can never disagree. A table lists every
// value once; `name_of` of a value missing from it is "", which a unit test of each table rules out.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace wcp {

template <typename Enum, std::size_t N>
using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

template <typename Enum, std::size_t N>
constexpr std::string_view name_of(const NameTable<Enum, N>& table, Enum value) {
  for (const auto& [entry, name] : table) {
    if (entry == value) return name;
  }
  return {};
}

template <typename Enum, std::size_t N>
constexpr std::optional<Enum> value_named(const NameTable<Enum, N>& table, std::string_view name) {
  for (const auto& [entry, entry_name] : table) {
    if (entry_name == name) return entry;
  }
  return std::nullopt;
}

// "a, b, c": the names a reader accepts, for its error message.
template <typename Enum, std::size_t N>
std::string known_names(const NameTable<Enum, N>& table) {
  std::string known;
  for (const auto& [entry, name] : table) known += (known.empty() ? "" : ", ") + std::string(name);
  return known;
}

}  // namespace wcp
