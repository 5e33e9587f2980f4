#pragma once
// Byte-for-byte fingerprints of files: the CRC-64 (XZ's polynomial, Boost.CRC) as 16 hex digits.
// They tell whether two runs wrote the same bytes (a build's source and outputs, a compiler
// library), not that nobody forged them: a CRC is no cryptographic hash, and needs none here.
#include <boost/crc.hpp>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace wcp {

class Crc64 {
 public:
  void feed(std::string_view bytes);
  // Feeds the whole file; false (and nothing fed) when it cannot be read.
  bool feed_file(const std::filesystem::path& path);
  std::string hex() const;

 private:
  // CRC-64/XZ: reflected, initial and final value all ones.
  boost::crc_optimal<64, 0x42F0E1EBA9EA3693ULL, ~0ULL, ~0ULL, true, true> engine_;
};

// The file's CRC-64 in hex; nullopt when it cannot be read.
std::optional<std::string> file_crc64(const std::filesystem::path& path);

}  // namespace wcp
