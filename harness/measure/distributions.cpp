#include "measure/distributions.h"

#include <fstream>
#include <set>

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

// `top_level.txt` names a distribution's import roots; without it, RECORD lists every file.
bool ships(const fs::path& dist_info, const std::string& top_level) {
  std::ifstream names(dist_info / "top_level.txt");
  if (names) {
    std::string line;
    while (std::getline(names, line)) {
      if (line == top_level) return true;
    }
    return false;
  }
  std::ifstream record(dist_info / "RECORD");
  std::string line;
  while (std::getline(record, line)) {
    if (line.starts_with(top_level + "/") || line.starts_with(top_level + ".py,")) return true;
  }
  return false;
}

// Name and Version from the METADATA headers (they end at the first empty line).
std::optional<Package> package_named_in(const fs::path& dist_info) {
  std::ifstream metadata(dist_info / "METADATA");
  Package package;
  std::string line;
  while (std::getline(metadata, line) && !line.empty()) {
    if (line.starts_with("Name: ")) package.name = line.substr(6);
    if (line.starts_with("Version: ")) package.version = line.substr(9);
  }
  if (package.name.empty()) return std::nullopt;
  return package;
}

// The import root of `relative` (a path under a site folder): its first component, without
// ".py" for a single-module distribution.
std::string top_level_of(const fs::path& relative) {
  std::string top = relative.begin()->string();
  if (top.ends_with(".py")) top.resize(top.size() - 3);
  return top;
}

}  // namespace

DistributionIndex::SiteFolder& DistributionIndex::folder(const fs::path& path) {
  auto [found, added] = folders_.try_emplace(path);
  if (!added) return found->second;
  std::error_code error;
  for (fs::directory_iterator entry(path, error), end; !error && entry != end; entry.increment(error)) {
    const auto name = entry->path().filename().string();
    if (name.ends_with(".dist-info") && entry->is_directory(error)) found->second.dist_infos.push_back(entry->path());
  }
  return found->second;
}

std::optional<Package> DistributionIndex::package_of(const fs::path& file) {
  if (file.empty() || !file.is_absolute()) return std::nullopt;
  for (fs::path above = file.parent_path(); !above.empty() && above != above.root_path(); above = above.parent_path()) {
    SiteFolder& site = folder(above);
    if (site.dist_infos.empty()) continue;
    const std::string top = top_level_of(file.lexically_relative(above));
    auto [known, added] = site.by_top_level.try_emplace(top);
    if (added) {
      for (const auto& dist_info : site.dist_infos) {
        if (ships(dist_info, top)) {
          known->second = package_named_in(dist_info);
          break;
        }
      }
    }
    if (known->second) return known->second;
  }
  return std::nullopt;
}

void name_distributions(instrument::InstrumentationEvents& events, DistributionIndex& index) {
  for (auto& load : events.loads) {
    for (auto& kernel : load.detail.kernels) {
      if (!kernel.package) kernel.package = index.package_of(kernel.file);
    }
  }
}

}  // namespace wcp::measure
