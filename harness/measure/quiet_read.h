#pragma once
// Reading a restored cache DIR without changing it, not even its access times: files and folders
// are opened with O_NOATIME where the caller owns them (measure/cache_copy.cpp does the same for
// the copy), so explaining a miss from DIR's generated source leaves DIR as the audit found it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace wcp::measure {

// The file's bytes, or nullopt when it cannot be opened or read.
std::optional<std::string> read_file_quietly(const std::filesystem::path& path);

// The names in a folder, sorted; empty when it cannot be opened.
std::vector<std::string> list_folder_quietly(const std::filesystem::path& folder);

}  // namespace wcp::measure
