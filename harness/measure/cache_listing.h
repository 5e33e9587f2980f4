#pragma once
// The entries of a Warp kernel cache as the file system has them. Warp 1.13+ keeps its modules
// in a folder per Warp version under WARP_CACHE_PATH (`1.19.0/wp_<module>_<hash7>/`); earlier
// versions (1.9.1 here) put them at the top (`wp_<module>_<hash7>/`). Both are listed, each
// with its group; what is neither (the `lto` folder, stray files) is listed as other items.
#include <filesystem>
#include <vector>

#include "model/cache_audit.h"

namespace wcp::measure {

struct CacheListing {
  std::vector<CacheEntry> entries;  // by group, then name
  std::vector<CacheOtherItem> others;
};

CacheListing list_cache(const std::filesystem::path& root);

// Whether a module directory's name ends in Warp's 7-hex short hash.
bool has_hash_suffix(const std::string& directory);

}  // namespace wcp::measure
