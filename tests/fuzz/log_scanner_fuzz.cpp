// libFuzzer target: the streaming Warp log parser (parse/log_scanner, parse/log_line).
// Any byte sequence is a possible target output, so there is no "error" path: the scanner
// must never crash, hang or grow without bound, and it must find the same facts whether the
// output arrives in one chunk or split at an arbitrary point (pipes split anywhere).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "parse/log_scanner.h"

namespace {

void require(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the chunk size for the streamed copy; the rest is the output.
  const std::size_t chunk = 1 + data[0];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);

  wcp::parse::LogScanner whole;
  whole.feed(text);
  whole.finish();

  wcp::parse::LogScanner streamed;
  for (std::size_t at = 0; at < text.size(); at += chunk) streamed.feed(text.substr(at, chunk));
  streamed.finish();

  const auto& a = whole.facts();
  const auto& b = streamed.facts();
  require(a.bytes == text.size() && b.bytes == text.size());
  require(a.lines <= text.size() + 1);
  require(a.find_failures.size() <= 100 && b.find_failures.size() <= 100);
  // Lines longer than the scanner's cap are cut differently when split; only compare below it.
  std::size_t longest = 0, current = 0;
  for (const char c : text) {
    current = c == '\n' ? 0 : current + 1;
    longest = current > longest ? current : longest;
  }
  if (longest < 60 * 1024) {
    require(a.lines == b.lines);
    require(a.module_events == b.module_events);
    require(a.hash_changes == b.hash_changes);
    require(a.warp_version == b.warp_version);
    require(a.pch_generated == b.pch_generated);
  }
  return 0;
}
