#include "model/launch.h"

#include <gtest/gtest.h>

namespace wcp {
namespace {

Launch make(const std::string& kernel, std::int64_t dim) {
  return Launch{kernel, "__main__", {dim}, "cpu", {"float32"}, 0, false};
}

TEST(LaunchEncoding, ConsecutiveIdenticalLaunchesCollapse) {
  std::vector<LaunchRun> runs;
  for (int i = 0; i < 1000; ++i) append_launch(runs, make("a", 8));
  append_launch(runs, make("b", 8));
  append_launch(runs, make("a", 8));
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].count, 1000u);
  EXPECT_EQ(total_launches(runs), 1002u);
}

TEST(LaunchEncoding, RoundTripPreservesOrder) {
  std::vector<Launch> original{make("a", 1), make("a", 1), make("a", 2), make("b", 2), make("b", 2), make("a", 1)};
  std::vector<LaunchRun> runs;
  for (const auto& launch : original) append_launch(runs, launch);
  EXPECT_EQ(runs.size(), 4u);
  EXPECT_EQ(expand_launches(runs), original);
}

TEST(LaunchEncoding, AnyFieldBreaksARun) {
  std::vector<LaunchRun> runs;
  auto launch = make("a", 4);
  append_launch(runs, launch);
  launch.adjoint = true;
  append_launch(runs, launch);
  launch.block_dim = 64;
  append_launch(runs, launch);
  launch.dtypes = {"float64"};
  append_launch(runs, launch);
  EXPECT_EQ(runs.size(), 4u);
  append_launch(runs, launch, 0);
  EXPECT_EQ(total_launches(runs), 4u);
}

}  // namespace
}  // namespace wcp
