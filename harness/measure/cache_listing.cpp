#include "measure/cache_listing.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

bool is_module_directory(const fs::directory_entry& item) {
  std::error_code error;
  return item.is_directory(error) && !item.is_symlink(error) && item.path().filename().string().starts_with("wp_");
}

// A Warp version folder: "1.19.0", "1.13.0.dev20250101"; begins with a digit.
bool is_version_folder(const fs::directory_entry& item) {
  std::error_code error;
  const std::string name = item.path().filename().string();
  return item.is_directory(error) && !item.is_symlink(error) && !name.empty() &&
         std::isdigit(static_cast<unsigned char>(name.front())) != 0 && name.find('.') != std::string::npos;
}

// Regular files under `path` (itself one, or a folder), by st_size; links are not followed.
std::pair<std::uint64_t, std::uint64_t> bytes_and_files(const fs::path& path) {
  std::error_code error;
  if (fs::is_regular_file(fs::symlink_status(path, error))) return {fs::file_size(path, error), 1};
  std::uint64_t bytes = 0, files = 0;
  for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    if (it->is_symlink(error) || !it->is_regular_file(error)) continue;
    bytes += it->file_size(error);
    ++files;
  }
  return {bytes, files};
}

CacheEntry entry_of(const fs::path& path, const std::string& group) {
  CacheEntry entry;
  entry.group = group;
  entry.name = path.filename().string();
  std::tie(entry.bytes, entry.files) = bytes_and_files(path);
  entry.hashless = !has_hash_suffix(entry.name);
  return entry;
}

void list_folder(const fs::path& folder, const std::string& group, CacheListing& listing) {
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const auto relative = group.empty() ? it->path().filename() : fs::path(group) / it->path().filename();
    if (is_module_directory(*it)) {
      listing.entries.push_back(entry_of(it->path(), group));
    } else if (group.empty() && is_version_folder(*it)) {
      list_folder(it->path(), it->path().filename().string(), listing);
    } else {
      listing.others.push_back({relative.string(), bytes_and_files(it->path()).first});
    }
  }
}

}  // namespace

bool has_hash_suffix(const std::string& directory) {
  const auto at = directory.rfind('_');
  if (at == std::string::npos || directory.size() - at - 1 != 7 || at < 4) return false;
  return std::all_of(directory.begin() + static_cast<std::ptrdiff_t>(at) + 1, directory.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0 || (c >= 'a' && c <= 'f'); });
}

CacheListing list_cache(const fs::path& root) {
  CacheListing listing;
  list_folder(root, "", listing);
  const auto by_place = [](const auto& a, const auto& b) {
    return std::tie(a.group, a.name) < std::tie(b.group, b.name);
  };
  std::sort(listing.entries.begin(), listing.entries.end(), by_place);
  std::sort(listing.others.begin(), listing.others.end(),
            [](const CacheOtherItem& a, const CacheOtherItem& b) { return a.path < b.path; });
  return listing;
}

}  // namespace wcp::measure
