#include "io/file_digest.h"

#include <fmt/format.h>

#include <array>
#include <boost/crc.hpp>
#include <fstream>

namespace wcp {
namespace {

// CRC-64/XZ: reflected, initial and final value all ones. The state kept between feeds is the
// register before the final XOR, so that a digest can be taken in pieces.
using Crc64Engine = boost::crc_optimal<64, 0x42F0E1EBA9EA3693ULL, 0, 0, true, true>;

}  // namespace

void Crc64::feed(std::string_view bytes) {
  Crc64Engine engine(state_);
  engine.process_bytes(bytes.data(), bytes.size());
  state_ = engine.checksum();
}

bool Crc64::feed_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  Crc64Engine engine(state_);
  std::array<char, 1 << 16> buffer{};
  while (file) {
    file.read(buffer.data(), buffer.size());
    engine.process_bytes(buffer.data(), static_cast<std::size_t>(file.gcount()));
  }
  if (file.bad()) return false;
  state_ = engine.checksum();
  return true;
}

std::string Crc64::hex() const {
  return fmt::format("{:016x}", ~state_);
}

std::optional<std::string> file_crc64(const std::filesystem::path& path) {
  Crc64 crc;
  if (!crc.feed_file(path)) return std::nullopt;
  return crc.hex();
}

}  // namespace wcp
