#pragma once
// Counts what Warp left in a kernel cache: generated source, LTO artifacts, module
// directories (a directory holding a .meta file is one built module variant).
#include <filesystem>

#include "model/report.h"

namespace wcp::measure {

CacheInventory inventory_cache(const std::filesystem::path& cache_root);

}  // namespace wcp::measure
