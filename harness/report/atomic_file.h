#pragma once
// Output files appear whole or not at all: content goes to a temp file in the destination
// directory, which is then renamed over the target.
#include <filesystem>
#include <string_view>

namespace wcp {

void write_file_atomically(const std::filesystem::path& destination, std::string_view content);

// Throws UsageError when `destination` could not be written (missing or read-only
// directory, or a directory in its place). Called before any work starts.
void require_writable_destination(const std::filesystem::path& destination, std::string_view what);

std::string read_text_file(const std::filesystem::path& path, std::string_view what);

}  // namespace wcp
