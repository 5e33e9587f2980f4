#pragma once
// A private copy of a kernel cache for `measure --warm-cache DIR`, so the audit pass can read
// and write it while DIR stays as it was. Per file: a reflink (FICLONE: shared blocks, no data
// written, on btrfs, XFS, bcachefs...), else copy_file_range (the kernel copies, and may share
// blocks itself), else read/write. Hard links are not used: a run that opened a linked file for
// writing, or changed its mode or times, would change DIR's file too. Source files and folders
// are opened with O_NOATIME where the caller owns them, so reading DIR does not touch its
// access times either.
#include <filesystem>

#include "model/cache_audit.h"

namespace wcp::measure {

// Copies the tree under `from` into `to` (created, must not exist): regular files, folders and
// symbolic links (as links); anything else is left out. Throws RunError when it cannot.
CacheCopyCost copy_cache_tree(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace wcp::measure
