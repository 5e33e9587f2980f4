// The cache inventory splits each module's generated source by kernel: the weight the
// never-launched report and the boundary proposal give each kernel.
#include "measure/cache_inventory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

class CacheInventoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("wcp-inventory-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  void place(const std::string& data_file, const std::string& module_dir, const std::string& file_name) {
    fs::create_directories(root_ / "1.19.0" / module_dir);
    fs::copy_file(fs::path(WCP_TEST_DATA_DIR) / "generated" / data_file, root_ / "1.19.0" / module_dir / file_name);
  }

  static const KernelSource& kernel(const ModuleSource& module, const std::string& name) {
    for (const auto& entry : module.kernels) {
      if (entry.name == name) return entry;
    }
    throw std::runtime_error("no kernel " + name);
  }

  fs::path root_;
};

std::uint64_t split_total(const ModuleSource& module) {
  return std::accumulate(
      module.kernels.begin(), module.kernels.end(), module.shared_bytes,
      [](std::uint64_t sum, const KernelSource& k) { return sum + k.forward_bytes + k.backward_bytes; });
}

TEST_F(CacheInventoryTest, SplitsCpuSourceByKernel) {
  place("cpu_alpha_beta.cpp", "wp___main___2da3d5a", "wp___main___2da3d5a.cpp");
  const auto inventory = inventory_cache(root_);
  ASSERT_EQ(inventory.modules.size(), 1u);
  const auto& module = inventory.modules.front();
  EXPECT_EQ(module.forward_kernels, 2u);
  EXPECT_EQ(module.backward_kernels, 2u);
  ASSERT_EQ(module.kernels.size(), 2u);
  EXPECT_EQ(module.kernels[0].name, "alpha_881cd9b1");
  EXPECT_EQ(module.kernels[1].name, "beta_c6e6286a");
  // Every byte is someone's: the shared prologue or one kernel's definitions.
  EXPECT_EQ(split_total(module), module.source_bytes);
  EXPECT_GT(module.shared_bytes, 0u);
  for (const auto& entry : module.kernels) {
    EXPECT_GT(entry.forward_bytes, 0u) << entry.name;
    EXPECT_GT(entry.backward_bytes, 0u) << entry.name;
  }
  // beta's body (a sin and its adjoint) is larger than alpha's.
  EXPECT_GT(kernel(module, "beta_c6e6286a").backward_bytes, kernel(module, "alpha_881cd9b1").backward_bytes);
}

TEST_F(CacheInventoryTest, SplitsCudaSourceAndSeesMissingBackward) {
  place("cuda_alpha_beta.cu", "wp___main___0123456", "wp___main___0123456.sm90.cu");
  const auto inventory = inventory_cache(root_);
  ASSERT_EQ(inventory.modules.size(), 1u);
  const auto& module = inventory.modules.front();
  EXPECT_EQ(module.forward_kernels, 2u);
  EXPECT_EQ(module.backward_kernels, 1u);  // beta was declared with enable_backward=False
  EXPECT_EQ(split_total(module), module.source_bytes);
  EXPECT_GT(kernel(module, "alpha_881cd9b1").backward_bytes, 0u);
  EXPECT_EQ(kernel(module, "beta_8cb9d518").backward_bytes, 0u);
  EXPECT_GT(kernel(module, "beta_8cb9d518").forward_bytes, 0u);
}

// CS-11's evidence: forward line markers that repeat within a kernel (an unrolled loop), leaving
// out the backward code and kernels whose loop runs over a wp.static range (always unrolled).
TEST_F(CacheInventoryTest, CountsRepeatedForwardLineMarkersOutsideStaticLoops) {
  fs::create_directories(root_ / "1.19.0" / "wp___main___abc1234");
  std::ofstream(root_ / "1.19.0" / "wp___main___abc1234" / "wp___main___abc1234.cpp")
      << "// prologue\n"
         "struct wp_args_unrolled_1 {\n};\n"
         "void unrolled_1_cpu_kernel_forward(\n"
         "    // s = s + a[k]                 <L 9>\n"
         "    // s = s * 0.5                  <L 10>\n"
         "    // s = s + a[k]                 <L 9>\n"
         "    // s = s * 0.5                  <L 10>\n"
         "    // out[i] = s                   <L 11>\n"
         "}\n"
         "void unrolled_1_cpu_kernel_backward(\n"
         "    // adj: s = s + a[k]            <L 9>\n"
         "    // s = s + a[k]                 <L 9>\n"
         "}\n"
         "struct wp_args_dispatch_2 {\n};\n"
         "void dispatch_2_cpu_kernel_forward(\n"
         "    // for i in range(wp.static(len(funcs))):   <L 20>\n"
         "    // f(i)                         <L 22>\n"
         "    // f(i)                         <L 22>\n"
         "}\n";
  const auto inventory = inventory_cache(root_);
  ASSERT_EQ(inventory.modules.size(), 1u);
  EXPECT_EQ(inventory.modules[0].forward_line_markers, 5u);
  EXPECT_EQ(inventory.modules[0].repeated_line_markers, 2u);
}

TEST_F(CacheInventoryTest, DigestsEachModulesSourceAndOutputsByteForByte) {
  place("cpu_alpha_beta.cpp", "wp___main___aaaaaaa", "wp___main___aaaaaaa.cpp");
  const fs::path module = root_ / "1.19.0" / "wp___main___aaaaaaa";
  std::ofstream(module / "wp___main___aaaaaaa.cpufb5ef6e7.o", std::ios::binary) << "object code";
  std::ofstream(module / "wp___main___aaaaaaa.meta") << "{}";
  const auto first = inventory_cache(root_);
  ASSERT_EQ(first.modules.size(), 1u);
  ASSERT_TRUE(first.modules[0].source_digest && first.modules[0].output_digest);
  EXPECT_EQ(first.modules[0].output_bytes, 11u);
  EXPECT_EQ(inventory_cache(root_), first) << "the same bytes give the same digests";

  std::ofstream(module / "wp___main___aaaaaaa.cpufb5ef6e7.o", std::ios::binary) << "object_code";
  const auto rebuilt = inventory_cache(root_);
  EXPECT_EQ(rebuilt.modules[0].output_bytes, 11u) << "one byte changed, not the size";
  EXPECT_NE(rebuilt.modules[0].output_digest, first.modules[0].output_digest);
  EXPECT_EQ(rebuilt.modules[0].source_digest, first.modules[0].source_digest);
}

TEST_F(CacheInventoryTest, AModuleWithoutOutputsHasNoOutputDigestRatherThanAnEmptyOne) {
  place("cpu_alpha_beta.cpp", "wp___main___aaaaaaa", "wp___main___aaaaaaa.cpp");
  const auto inventory = inventory_cache(root_);
  ASSERT_EQ(inventory.modules.size(), 1u);
  EXPECT_TRUE(inventory.modules[0].source_digest);
  EXPECT_FALSE(inventory.modules[0].output_digest);
  EXPECT_FALSE(inventory.modules[0].output_bytes);
}

}  // namespace
}  // namespace wcp::measure
