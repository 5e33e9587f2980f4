#include "io/units.h"

#include <fmt/format.h>
#include <cmath>

namespace wcp {
namespace {

constexpr double kSecondsFromMs = 10000.0;

std::string seconds_text(double ms) {
  return fmt::format("{:.1f} s", ms / 1000.0);
}

}  // namespace

std::string milliseconds_text(double ms) {
  if (ms >= kSecondsFromMs) return seconds_text(ms);
  if (ms >= 10.0) return fmt::format("{:.0f} ms", ms);
  return fmt::format("{:.1f} ms", ms);
}

std::string whole_milliseconds_text(double ms) {
  if (ms >= kSecondsFromMs) return seconds_text(ms);
  return fmt::format("{:.0f} ms", ms);
}

std::string tenths_milliseconds_text(double ms) {
  return fmt::format("{:.1f} ms", ms);
}

std::string reading_text(double ms) {
  if (std::abs(ms) >= 1000.0) return fmt::format("{:.2f} s", ms / 1000.0);
  return fmt::format("{:.0f} ms", ms);
}

std::string bytes_text(std::uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  if (bytes < 1024 * 1024) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024.0));
}

}  // namespace wcp
