#pragma once
// Typed reads of yaml-cpp nodes that fail with "FILE:LINE: message" instead of yaml-cpp's
// generic conversion errors, so a user sees which line of their budget file is wrong.
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace wcp {

class YamlReader {
 public:
  explicit YamlReader(std::filesystem::path file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const;
  int line_of(const YAML::Node& node) const;
  const std::filesystem::path& file() const { return file_; }

  std::string string(const YAML::Node& node, const std::string& key) const;
  std::uint64_t count(const YAML::Node& node, const std::string& key) const;       // integer >= 0
  int positive_int(const YAML::Node& node, const std::string& key) const;          // integer >= 1
  std::uint64_t positive_count(const YAML::Node& node, const std::string& key) const;  // integer >= 1
  double non_negative_number(const YAML::Node& node, const std::string& key) const;
  double positive_number(const YAML::Node& node, const std::string& key) const;
  bool boolean(const YAML::Node& node, const std::string& key) const;
  std::map<std::string, std::string> string_map(const YAML::Node& node, const std::string& key) const;
  std::vector<std::string> string_list(const YAML::Node& node, const std::string& key) const;

  // Visits each key of a mapping in file order; rejects duplicate keys, which yaml-cpp accepts
  // silently (the last one would win, hiding a typo).
  template <typename Visit>
  void for_each_key(const YAML::Node& mapping, const std::string& what, Visit visit) const {
    if (!mapping.IsMap()) fail(mapping, what + " must be a mapping of keys to values");
    std::map<std::string, int> seen;
    for (auto it = mapping.begin(); it != mapping.end(); ++it) {
      const std::string key = string(it->first, "key");
      if (auto previous = seen.find(key); previous != seen.end()) {
        fail(it->first, "duplicate key '" + key + "' in " + what + " (first at line " +
                            std::to_string(previous->second) + ")");
      }
      seen.emplace(key, line_of(it->first));
      visit(key, it->first, it->second);
    }
  }

 private:
  std::filesystem::path file_;
};

}  // namespace wcp
