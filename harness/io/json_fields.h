#pragma once
// Reading fields out of JSON documents written by people or other tools: a missing or null
// field takes its fallback, a wrong type or an integer out of range is a FieldError naming the
// field (never undefined behaviour: converting a JSON float outside an integer type's range
// is UB, so integers are range-checked before nlohmann converts them). Every reader of JSON
// input in the project goes through these.
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace wcp::json_fields {

using nlohmann::json;

struct FieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace detail {
template <typename T>
struct IsVector : std::false_type {};
template <typename T>
struct IsVector<std::vector<T>> : std::true_type {};

template <typename T>
bool fits(const json& value) {
  if constexpr (IsVector<T>::value) {
    if (!value.is_array()) return true;  // the conversion reports the wrong type
    for (const auto& item : value) {
      if (!fits<typename T::value_type>(item)) return false;
    }
    return true;
  } else if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (value.is_number_float()) {
      const double number = value.get<double>();
      // Strictly inside: the max of a 64-bit type rounds up to 2^64 as a double.
      return number > static_cast<double>(std::numeric_limits<T>::min()) - 1.0 &&
             number < static_cast<double>(std::numeric_limits<T>::max());
    }
    if (value.is_number_unsigned()) return value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    if (value.is_number_integer()) {
      const auto number = value.get<std::int64_t>();
      if constexpr (std::is_unsigned_v<T>) return number >= 0;
      return number >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
             number <= static_cast<std::int64_t>(std::numeric_limits<T>::max());
    }
    return true;
  } else {
    return true;
  }
}
}  // namespace detail

// The field converted to T; `fallback` when absent or null.
template <typename T>
T get(const json& object, std::string_view key, T fallback) {
  if (!object.is_object()) throw FieldError("expected an object");
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return fallback;
  if (!detail::fits<T>(*found)) throw FieldError("field '" + std::string(key) + "' is out of range");
  try {
    return found->template get<T>();
  } catch (const json::exception&) {
    throw FieldError("field '" + std::string(key) + "' has the wrong type (" + found->type_name() + ")");
  }
}

// nullopt when absent or null.
template <typename T>
std::optional<T> get_optional(const json& object, std::string_view key) {
  if (!object.is_object()) throw FieldError("expected an object");
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  return get<T>(object, key, T{});
}

inline bool has(const json& object, std::string_view key) {
  return object.is_object() && object.contains(key) && !object.at(key).is_null();
}

// Calls read(item, index) for each element of the list `key` (absent or null: none). An error
// inside names the element: "module_events[3]: field 'ms' has the wrong type (string)".
template <typename Read>
void each(const json& object, std::string_view key, Read&& read) {
  if (!object.is_object()) throw FieldError("expected an object");
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return;
  if (!found->is_array()) throw FieldError("field '" + std::string(key) + "' must be a list");
  std::size_t index = 0;
  for (const auto& item : *found) {
    try {
      read(item, index);
    } catch (const FieldError& error) {
      throw FieldError(std::string(key) + "[" + std::to_string(index) + "]: " + error.what());
    } catch (const json::exception& error) {
      throw FieldError(std::string(key) + "[" + std::to_string(index) + "]: " + error.what());
    }
    ++index;
  }
}

// json(value) or null.
template <typename T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace wcp::json_fields
