#include "io/yaml_reader.h"

#include <charconv>
#include <cmath>

#include "errors.h"

namespace wcp {
namespace {

std::string describe(const YAML::Node& node) {
  if (node.IsNull()) return "nothing";
  if (node.IsSequence()) return "a list";
  if (node.IsMap()) return "a mapping";
  return "'" + node.Scalar() + "'";
}

}  // namespace

void YamlReader::fail(const YAML::Node& node, const std::string& message) const {
  throw UsageError(file_.string() + ":" + std::to_string(line_of(node)) + ": " + message);
}

int YamlReader::line_of(const YAML::Node& node) const {
  // yaml-cpp marks are 0-based; editors count lines from 1.
  const auto mark = node.Mark();
  return mark.line < 0 ? 0 : mark.line + 1;
}

std::string YamlReader::string(const YAML::Node& node, const std::string& key) const {
  if (!node.IsScalar()) fail(node, "'" + key + "' must be a string, got " + describe(node));
  return node.Scalar();
}

std::uint64_t YamlReader::count(const YAML::Node& node, const std::string& key) const {
  if (node.IsScalar()) {
    const std::string& text = node.Scalar();
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size() && !text.empty()) return value;
  }
  fail(node, "'" + key + "' must be a whole number >= 0, got " + describe(node));
}

std::uint64_t YamlReader::positive_count(const YAML::Node& node, const std::string& key) const {
  return static_cast<std::uint64_t>(positive_int(node, key));
}

int YamlReader::positive_int(const YAML::Node& node, const std::string& key) const {
  if (node.IsScalar()) {
    const std::string& text = node.Scalar();
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size() && value >= 1) return value;
  }
  fail(node, "'" + key + "' must be a whole number >= 1, got " + describe(node));
}

double YamlReader::non_negative_number(const YAML::Node& node, const std::string& key) const {
  if (node.IsScalar()) {
    const std::string& text = node.Scalar();
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size() && std::isfinite(value) && value >= 0) return value;
  }
  fail(node, "'" + key + "' must be a number >= 0, got " + describe(node));
}

double YamlReader::positive_number(const YAML::Node& node, const std::string& key) const {
  const double value = non_negative_number(node, key);
  if (value <= 0) fail(node, "'" + key + "' must be a number > 0, got " + describe(node));
  return value;
}

bool YamlReader::boolean(const YAML::Node& node, const std::string& key) const {
  static_cast<void>(key);
  if (node.IsScalar()) {
    // YAML 1.2 core schema only: "yes"/"on" are strings there, and meaning them as booleans
    // is a classic source of surprises.
    if (node.Scalar() == "true") return true;
    if (node.Scalar() == "false") return false;
  }
  fail(node, "'" + key + "' must be true or false, got " + describe(node));
}

std::map<std::string, std::string> YamlReader::string_map(const YAML::Node& node, const std::string& key) const {
  std::map<std::string, std::string> values;
  for_each_key(node, "'" + key + "'", [&](const std::string& name, const YAML::Node&, const YAML::Node& value) {
    values[name] = string(value, key + "." + name);
  });
  return values;
}

std::vector<std::string> YamlReader::string_list(const YAML::Node& node, const std::string& key) const {
  if (!node.IsSequence()) fail(node, "'" + key + "' must be a list of strings, got " + describe(node));
  std::vector<std::string> values;
  for (const auto& item : node) values.push_back(string(item, key + " item"));
  return values;
}

}  // namespace wcp
