#include "budget/cuda_device.h"

#include <filesystem>
#include <regex>

namespace wcp::budget {

bool cuda_device_present(const EnvironmentLookup& environment) {
  if (const auto forced = environment("WCP_CUDA_DEVICE"); forced && !forced->empty()) return *forced != "0";
  static const std::regex device_node("nvidia[0-9]+");
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", error)) {
    if (std::regex_match(entry.path().filename().string(), device_node)) return true;
  }
  return false;
}

}  // namespace wcp::budget
