// libFuzzer target: the instrumentation's JSON-lines reader of one process's event file
// (instrument/instrumentation_events). The file is written by a process that may crash mid-line or
// print garbage into it; reading must be tolerant: never throw, never crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "instrument/instrumentation_events.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Tolerance is the contract: an exception escaping here is a bug (libFuzzer reports it).
  wcp::instrument::InstrumentationEvents run;
  const auto process = wcp::instrument::parse_process_events(text, run);
  std::size_t lines = 0;
  for (const char c : text) lines += c == '\n' ? 1 : 0;
  if (process.malformed_lines > lines + 1) std::abort();
  return 0;
}
