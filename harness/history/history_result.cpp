#include "history/history_result.h"

#include "io/name_table.h"

namespace wcp::history {
namespace {

constexpr NameTable<Source, 5> kSourceNames{{
    {Source::measure, "measure"},
    {Source::check, "check"},
    {Source::ab_baseline, "ab-baseline"},
    {Source::ab_candidate, "ab-candidate"},
    {Source::import, "import"},
}};

}  // namespace

std::string to_string(Source source) {
  return std::string(name_of(kSourceNames, source));
}

std::optional<Source> source_from_string(const std::string& text) {
  return value_named(kSourceNames, text);
}

bool Machine::same_hardware(const Machine& other) const {
  if (driver != other.driver) return false;
  if (!machine_class.empty() && !other.machine_class.empty()) return machine_class == other.machine_class;
  return host == other.host && cpu_model == other.cpu_model && gpu == other.gpu;
}

std::string Machine::key() const {
  if (!machine_class.empty()) {
    std::string text = machine_class + " (";
    if (!driver.empty()) text += "driver " + driver + "; ";
    text += "Warp " + (warp_version.empty() ? std::string("unknown") : warp_version);
    if (!cuda_toolkit.empty()) text += "; CUDA " + cuda_toolkit;
    return text + ")";
  }
  std::string text = host + " (" + (cpu_model.empty() ? "unknown CPU" : cpu_model);
  if (!gpu.empty()) text += "; " + gpu + (driver.empty() ? "" : " driver " + driver);
  text += "; Warp " + (warp_version.empty() ? std::string("unknown") : warp_version);
  if (!cuda_toolkit.empty()) text += "; CUDA " + cuda_toolkit;
  return text + ")";
}

}  // namespace wcp::history
