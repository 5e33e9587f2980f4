#include "model/launch.h"

namespace wcp {

void append_launch(std::vector<LaunchRun>& runs, const Launch& launch, std::uint64_t count) {
  if (count == 0) return;
  if (!runs.empty() && runs.back().launch == launch) {
    runs.back().count += count;
    return;
  }
  runs.push_back({launch, count});
}

std::vector<Launch> expand_launches(const std::vector<LaunchRun>& runs) {
  std::vector<Launch> launches;
  for (const auto& run : runs) launches.insert(launches.end(), run.count, run.launch);
  return launches;
}

std::uint64_t total_launches(const std::vector<LaunchRun>& runs) {
  std::uint64_t total = 0;
  for (const auto& run : runs) total += run.count;
  return total;
}

}  // namespace wcp
