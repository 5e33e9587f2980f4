#include "parse/log_line.h"

#include <gtest/gtest.h>

namespace wcp::parse {
namespace {

ModuleLoadLine module_line(std::string_view text) {
  const LogLine parsed = parse_line(text);
  EXPECT_TRUE(std::holds_alternative<ModuleLoadLine>(parsed)) << text;
  return std::holds_alternative<ModuleLoadLine>(parsed) ? std::get<ModuleLoadLine>(parsed) : ModuleLoadLine{};
}

TEST(LogLine, CpuModuleLineWithBlockDim) {
  const auto line =
      module_line("Module __main__ e614ada load on device 'cpu' (block_dim=1) took 2910.85 ms  (compiled)");
  EXPECT_EQ(line.name, "__main__");
  EXPECT_EQ(line.hash, "e614ada");
  EXPECT_EQ(line.device, "cpu");
  ASSERT_TRUE(line.block_dim.has_value());
  EXPECT_EQ(*line.block_dim, 1);
  EXPECT_DOUBLE_EQ(line.ms, 2910.85);
  EXPECT_EQ(line.status, LoadStatus::compiled);
}

TEST(LogLine, InfoLevelLineHasNoBlockDim) {
  const auto line = module_line("Module __main__ b43a5cc load on device 'cpu' took 304.05 ms  (cached)");
  EXPECT_FALSE(line.block_dim.has_value());
  EXPECT_EQ(line.status, LoadStatus::cached);
  EXPECT_DOUBLE_EQ(line.ms, 304.05);
}

TEST(LogLine, CudaDottedNameAndErrorStatus) {
  const auto line =
      module_line("Module warp.fem.cache 5a1b2c3 load on device 'cuda:0' (block_dim=256) took 1901.50 ms  (compiled)");
  EXPECT_EQ(line.name, "warp.fem.cache");
  EXPECT_EQ(line.device, "cuda:0");
  EXPECT_EQ(*line.block_dim, 256);
  const auto error = module_line("Module broken_mod 0badf00 load on device 'cuda:0' took 12.00 ms  (error)");
  EXPECT_EQ(error.status, LoadStatus::error);
}

TEST(LogLine, StripHashModuleHasNoHash) {
  const auto line = module_line("Module my_tiles load on device 'cuda:0' (block_dim=64) took 950.75 ms  (compiled)");
  EXPECT_EQ(line.name, "my_tiles");
  EXPECT_TRUE(line.hash.empty());
}

TEST(LogLine, StartLineIsNotAnEvent) {
  EXPECT_TRUE(std::holds_alternative<std::monostate>(
      parse_line("Module __main__ e614ada load on device 'cpu' (block_dim=1) ...")));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(parse_line("    Compile x86 ...")));
}

TEST(LogLine, NativeCompileLines) {
  const auto cpu = std::get<NativeCompileLine>(parse_line("    Compile x86 took 316.10 ms"));
  EXPECT_FALSE(cpu.cuda);
  EXPECT_DOUBLE_EQ(cpu.ms, 316.10);
  const auto cuda = std::get<NativeCompileLine>(
      parse_line("    Compile CUDA (arch=sm_90, mode=release, block_dim=256) took 1830.25 ms"));
  EXPECT_TRUE(cuda.cuda);
  EXPECT_EQ(cuda.details, "arch=sm_90, mode=release, block_dim=256");
  EXPECT_DOUBLE_EQ(cuda.ms, 1830.25);
}

TEST(LogLine, HashChangedLine) {
  const auto line = std::get<HashChangedLine>(
      parse_line("[Module.load] Module hash changed, recompiling: __main__ (e614adab -> b43a5cc0)"));
  EXPECT_EQ(line.module, "__main__");
  EXPECT_EQ(line.old_hash, "e614adab");
  EXPECT_EQ(line.new_hash, "b43a5cc0");
}

TEST(LogLine, BannerAndPrecompiledHeader) {
  EXPECT_EQ(std::get<WarpInitLine>(parse_line("Warp 1.19.0 initialized:")).version, "1.19.0");
  EXPECT_TRUE(std::holds_alternative<PchGeneratedLine>(
      parse_line("Warp: Generating precompiled header: /tmp/wp_pch_x/builtin.pch")));
}

TEST(LogLine, ApplicationOutputIsIgnored) {
  for (const char* text :
       {"", "Module", "Modules loaded: 3", "Module x load on device 'cpu' took many ms  (compiled)",
        "Module x abc load on device 'cpu' took 1.0 ms  (weird)", "[1. 1. 1.]", "Compile everything took 3 ms"}) {
    EXPECT_TRUE(std::holds_alternative<std::monostate>(parse_line(text))) << text;
  }
}

TEST(LogLine, TerminalNoiseIsStripped) {
  std::string storage;
  const auto clean =
      strip_terminal_noise("\x1b[32mModule m 1234abc load on device 'cuda:1' took 3.50 ms  (cached)\x1b[0m\r", storage);
  EXPECT_EQ(clean, "Module m 1234abc load on device 'cuda:1' took 3.50 ms  (cached)");
  const auto line = module_line(clean);
  EXPECT_EQ(line.device, "cuda:1");
  std::string unused;
  EXPECT_EQ(strip_terminal_noise("plain\r", unused), "plain");
}

TEST(LogLine, MessagesSharingALineAreFoundWhereTheFirstEnds) {
  constexpr std::string_view two_ends =
      "Module a 1234abc load on device 'cpu' took 0.70 ms  (cached)    Module b 56789ab load on device 'cpu' took 1.07 ms";
  EXPECT_EQ(next_message_start(two_ends), two_ends.find("Module b"));
  constexpr std::string_view start_then_end = "Module c load on device 'cpu' ...Module d load on device 'cpu' took 1 ms";
  EXPECT_EQ(next_message_start(start_then_end), start_then_end.find("Module d"));
  constexpr std::string_view end_then_banner = "Compile x86 took 3.00 msWarp CUDA warning: no driver";
  EXPECT_EQ(next_message_start(end_then_banner), end_then_banner.find("Warp CUDA"));
}

TEST(LogLine, OneMessageIsNotSplit) {
  EXPECT_EQ(next_message_start("[Module.load] Module hash changed, recompiling: m (aa -> bb)"), std::string_view::npos);
  EXPECT_EQ(next_message_start("Module m 1234abc load on device 'cpu' (block_dim=256) took 2.67 ms  (cached)"),
            std::string_view::npos);
  EXPECT_EQ(next_message_start("the result (see above) Was fine"), std::string_view::npos);
}

}  // namespace
}  // namespace wcp::parse
