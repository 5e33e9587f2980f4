#pragma once
// Files the tool reads and writes. Output files appear whole or not at all: content goes to a
// temporary file in the destination directory, which is then renamed over the target.
#include <filesystem>
#include <string>
#include <string_view>

namespace wcp {

// Throws UsageError when `destination` could not be written (missing or read-only directory,
// or a directory in its place). Called before any work starts, so a bad path costs nothing.
void require_writable_destination(const std::filesystem::path& destination, std::string_view what);

// Throws RunError when writing fails anyway (disk full, permissions changed meanwhile); the
// destination is then left as it was.
void write_file_atomically(const std::filesystem::path& destination, std::string_view content);

// Throws UsageError naming `what` and the path when the file is missing or unreadable.
std::string read_text_file(const std::filesystem::path& path, std::string_view what);

}  // namespace wcp
