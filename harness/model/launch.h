#pragma once
// Kernel launches, stored run-length encoded: a loop that launches the same kernel a million
// times costs one record with count = 1,000,000.
#include <cstdint>
#include <string>
#include <vector>

namespace wcp {

struct Launch {
  std::string kernel;
  std::string module;
  std::vector<std::int64_t> dim;
  std::string device;
  std::vector<std::string> dtypes;  // dtype of each array argument, "" for non-array arguments
  int block_dim = 0;                // 0 when Warp chose the default
  bool adjoint = false;
  bool operator==(const Launch&) const = default;
};

struct LaunchRun {
  Launch launch;
  std::uint64_t count = 1;
  bool operator==(const LaunchRun&) const = default;
};

// Appends one launch, merging it into the last run when identical.
void append_launch(std::vector<LaunchRun>& runs, const Launch& launch, std::uint64_t count = 1);
std::vector<Launch> expand_launches(const std::vector<LaunchRun>& runs);
std::uint64_t total_launches(const std::vector<LaunchRun>& runs);

}  // namespace wcp
