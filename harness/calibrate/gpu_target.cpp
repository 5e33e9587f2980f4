#include "calibrate/gpu_target.h"

#include <algorithm>
#include <regex>

#include "errors.h"

namespace wcp::calibrate {
namespace {

std::string list_archs(const std::vector<int>& archs) {
  std::string text;
  for (int arch : archs) text += (text.empty() ? "sm_" : ", sm_") + std::to_string(arch);
  return text;
}

}  // namespace

GpuTarget parse_gpu_target(const std::string& arch, const std::vector<int>& supported) {
  static const std::regex pattern(R"((sm|compute)_([0-9]{2,3})([af]?))");
  std::smatch match;
  if (!std::regex_match(arch, match, pattern)) {
    throw UsageError("unknown GPU architecture '" + arch + "': expected sm_XX (CUBIN) or compute_XX (PTX), e.g. sm_90");
  }
  GpuTarget target;
  target.name = arch;
  target.number = std::stoi(match[2].str());
  target.output = match[1].str() == "sm" ? OutputKind::kCubin : OutputKind::kPtx;
  if (!supported.empty() && std::find(supported.begin(), supported.end(), target.number) == supported.end()) {
    throw UsageError("GPU architecture '" + arch + "' is not supported by this NVRTC (it knows " +
                     list_archs(supported) + ")");
  }
  return target;
}

}  // namespace wcp::calibrate
