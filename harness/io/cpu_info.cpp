#include "io/cpu_info.h"

#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

namespace wcp {
namespace {

// The value of a "key<tabs>: value" line when it has the key, else nullopt.
std::optional<std::string> value_of(const std::string& line, std::string_view key) {
  if (line.rfind(key, 0) != 0) return std::nullopt;
  const auto colon = line.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const auto start = line.find_first_not_of(" \t", colon + 1);
  return start == std::string::npos ? std::string() : line.substr(start);
}

}  // namespace

CpuInfo read_cpu_info() {
  CpuInfo info;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  bool have_flags = false;
  while (std::getline(cpuinfo, line) && (info.model.empty() || !have_flags)) {
    if (info.model.empty()) {
      if (auto model = value_of(line, "model name")) info.model = std::move(*model);
    }
    if (have_flags) continue;
    auto flags = value_of(line, "flags");
    if (!flags) flags = value_of(line, "Features");
    if (!flags) continue;
    std::istringstream words(*flags);
    for (std::string word; words >> word;) info.flags.push_back(word);
    have_flags = true;
  }
  return info;
}

}  // namespace wcp
