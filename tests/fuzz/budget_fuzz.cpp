// libFuzzer target: the budget YAML loader (budget/budget_parse). Every malformed file must
// end in wcp::UsageError with a "FILE:LINE:"-style message; another exception type (yaml-cpp's
// own, std::invalid_argument from expansion, ...) escaping the loader, a crash or a hang is a
// bug. File checks are off so the result does not depend on the machine.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "budget/budget_parse.h"
#include "errors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const wcp::EnvironmentLookup environment = [](const std::string& name) -> std::optional<std::string> {
    if (name == "WCP_PYTHON") return std::string("/usr/bin/python3");
    if (name == "HOME") return std::string("/home/fuzz");
    return std::nullopt;
  };
  wcp::budget::LoadOptions options;
  options.check_files = false;
  try {
    (void)wcp::budget::parse_budget_text(text, "/fuzz/budget.yaml", environment, options);
  } catch (const wcp::UsageError& error) {
    if (std::string_view(error.what()).find("budget.yaml") == std::string_view::npos) std::abort();
  }
  return 0;
}
