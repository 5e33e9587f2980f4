#include "io/file_digest.h"

#include <fmt/format.h>

#include <array>
#include <fstream>

namespace wcp {
void Crc64::feed(std::string_view bytes) {
  engine_.process_bytes(bytes.data(), bytes.size());
}

bool Crc64::feed_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return false;
  // Fed into a copy, so that a read that fails midway leaves this digest as it was.
  auto engine = engine_;
  std::array<char, 1 << 16> buffer{};
  while (file) {
    file.read(buffer.data(), buffer.size());
    engine.process_bytes(buffer.data(), static_cast<std::size_t>(file.gcount()));
  }
  if (file.bad()) return false;
  engine_ = engine;
  return true;
}

std::string Crc64::hex() const {
  return fmt::format("{:016x}", engine_.checksum());
}

std::optional<std::string> file_crc64(const std::filesystem::path& path) {
  Crc64 crc;
  if (!crc.feed_file(path)) return std::nullopt;
  return crc.hex();
}

}  // namespace wcp
