// libFuzzer target: the report JSON reader (report/report_json), for this tool's reports and
// the original Python probe's. Malformed input must end in wcp::UsageError with a message
// naming the source; any other exception or a crash is a bug. A report that loads must
// survive a write/read round trip.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "errors.h"
#include "codec/report_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  wcp::Report report;
  try {
    report = wcp::report_from_json_text(text, "fuzz.json");
  } catch (const wcp::UsageError& error) {
    if (std::string_view(error.what()).find("fuzz.json") == std::string_view::npos) std::abort();
    return 0;
  }
  // What we accepted we must be able to write, and read back.
  const std::string written = wcp::report_to_json_text(report);
  try {
    (void)wcp::report_from_json_text(written, "round-trip.json");
  } catch (const wcp::UsageError&) {
    std::abort();
  }
  return 0;
}
