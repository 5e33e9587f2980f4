// Which installed distribution a kernel's file ships in, from the dist-info folders above it
// (the tool's replacement for the instrumentation's importlib.metadata lookup).
#include "measure/distributions.h"

#include <gtest/gtest.h>

#include <fstream>

#include "run/scratch_dir.h"

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

class DistributionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    site_ = scratch_.path() / "venv" / "lib" / "python3.12" / "site-packages";
    // A wheel with top_level.txt whose name differs from its import name, as warp-lang's does.
    write(site_ / "warp_lang-1.19.0.dist-info" / "METADATA",
          "Metadata-Version: 2.4\nName: warp-lang\nVersion: 1.19.0\n\nbody\n");
    write(site_ / "warp_lang-1.19.0.dist-info" / "top_level.txt", "warp\n");
    write(site_ / "warp" / "fem" / "operator.py", "");
    // One without top_level.txt: RECORD decides, including a single-module distribution.
    write(site_ / "six-1.17.0.dist-info" / "METADATA", "Name: six\nVersion: 1.17.0\n");
    write(site_ / "six-1.17.0.dist-info" / "RECORD", "six.py,sha256=x,100\nsix-1.17.0.dist-info/METADATA,,\n");
    write(site_ / "six.py", "");
    write(site_ / "loose" / "module.py", "");
    write(scratch_.path() / "project" / "app.py", "");
  }

  ScratchDir scratch_;
  fs::path site_;
};

TEST_F(DistributionsTest, NamesTheDistributionThatListsTheTopLevelPackage) {
  DistributionIndex index;
  const auto warp = index.package_of(site_ / "warp" / "fem" / "operator.py");
  ASSERT_TRUE(warp.has_value());
  EXPECT_EQ(*warp, (Package{"warp-lang", "1.19.0"}));
  EXPECT_EQ(index.package_of(site_ / "six.py"), (Package{"six", "1.17.0"}));
}

TEST_F(DistributionsTest, CodeNoDistributionListsIsTheApplications) {
  DistributionIndex index;
  EXPECT_FALSE(index.package_of(scratch_.path() / "project" / "app.py").has_value());
  EXPECT_FALSE(index.package_of(site_ / "loose" / "module.py").has_value());  // in a site folder, shipped by none
  EXPECT_FALSE(index.package_of("relative/app.py").has_value());
  EXPECT_FALSE(index.package_of("").has_value());
}

KernelInfo kernel(const std::string& key, const std::filesystem::path& file, std::optional<Package> package = {}) {
  KernelInfo info;
  info.key = key;
  info.file = file.string();
  info.package = std::move(package);
  return info;
}

TEST_F(DistributionsTest, FillsEveryRecordedKernelAndKeepsOnesAlreadyNamed) {
  instrument::InstrumentationEvents events;
  instrument::InstrumentedLoad load;
  load.detail.kernels.push_back(kernel("integrate", site_ / "warp" / "fem" / "operator.py"));
  load.detail.kernels.push_back(kernel("mine", scratch_.path() / "project" / "app.py"));
  load.detail.kernels.push_back(kernel("old", scratch_.path() / "project" / "app.py", Package{"x", "1"}));
  events.loads.push_back(load);
  DistributionIndex index;
  name_distributions(events, index);
  const auto& kernels = events.loads[0].detail.kernels;
  EXPECT_EQ(kernels[0].package, (Package{"warp-lang", "1.19.0"}));
  EXPECT_FALSE(kernels[1].package.has_value());
  EXPECT_EQ(kernels[2].package, (Package{"x", "1"}));  // a report of an older probe named it already
}

}  // namespace
}  // namespace wcp::measure
