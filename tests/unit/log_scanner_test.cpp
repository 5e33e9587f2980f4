#include "parse/log_scanner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace wcp::parse {
namespace {

std::string read_log(const std::string& name) {
  std::ifstream file(std::string(WCP_TEST_DATA_DIR) + "/logs/" + name, std::ios::binary);
  std::ostringstream content;
  content << file.rdbuf();
  EXPECT_FALSE(content.str().empty()) << name;
  return content.str();
}

LogFacts scan(std::string_view text, std::size_t chunk_size) {
  LogScanner scanner;
  for (std::size_t at = 0; at < text.size(); at += chunk_size) scanner.feed(text.substr(at, chunk_size));
  scanner.finish();
  return scanner.facts();
}

TEST(LogScanner, RealWarp119DebugLog) {
  const auto facts = scan(read_log("warp-1.19.0-cpu-debug.log"), 1 << 16);
  ASSERT_EQ(facts.module_events.size(), 2u);
  EXPECT_EQ(facts.module_events[0].hash, "e614ada");
  EXPECT_EQ(facts.module_events[1].hash, "b43a5cc");
  EXPECT_TRUE(facts.module_events[0].built_pch);
  EXPECT_FALSE(facts.module_events[1].built_pch);
  ASSERT_TRUE(facts.module_events[0].native_ms.has_value());
  EXPECT_GT(facts.native_compile_ms, 0.0);
  EXPECT_DOUBLE_EQ(facts.native_compile_ms, *facts.module_events[0].native_ms + *facts.module_events[1].native_ms);
  EXPECT_EQ(facts.warp_version, "1.19.0");
  ASSERT_EQ(facts.hash_changes.size(), 1u);
  EXPECT_EQ(facts.hash_changes[0], (HashChange{"__main__", "e614adab", "b43a5cc0"}));
  EXPECT_TRUE(facts.pch_generated);
}

TEST(LogScanner, RealWarp191VerboseLog) {
  const auto facts = scan(read_log("warp-1.9.1-cpu-verbose.log"), 7);
  ASSERT_EQ(facts.module_events.size(), 2u);
  EXPECT_NE(facts.module_events[0].hash, facts.module_events[1].hash);
  EXPECT_EQ(facts.warp_version, "1.9.1");
  EXPECT_TRUE(facts.hash_changes.empty());  // 1.9 does not print the recompiling line
}

TEST(LogScanner, LoadsPrintedOnOneLineByParallelThreadsAreAllKept) {
  // Warp 1.9.1, three threads calling load_module at once, stdout a pipe: each timer prints its
  // text and its newline in two writes, so two loads' ends share one line.
  const auto facts = scan(read_log("warp-1.9.1-parallel-merged.log"), 5);
  ASSERT_EQ(facts.module_events.size(), 12u);
  std::vector<std::pair<std::string, double>> parallel;
  for (const auto& event : facts.module_events) {
    if (event.name.starts_with("parallel_") && event.block_dim == 256) parallel.emplace_back(event.name, event.ms);
  }
  EXPECT_EQ(parallel, (std::vector<std::pair<std::string, double>>{
                          {"parallel_c", 0.70}, {"parallel_b", 1.07}, {"parallel_a", 2.45}}));
}

TEST(LogScanner, ChunkBoundariesDoNotMatter) {
  const auto text = read_log("warp-cuda-forms.log");
  const auto whole = scan(text, text.size());
  for (std::size_t chunk : {1u, 3u, 17u, 100u}) {
    const auto pieces = scan(text, chunk);
    ASSERT_EQ(pieces.module_events.size(), whole.module_events.size()) << chunk;
    EXPECT_EQ(pieces.module_events, whole.module_events) << chunk;
  }
  ASSERT_EQ(whole.module_events.size(), 7u);
  EXPECT_EQ(whole.module_events[3].status, LoadStatus::error);
  EXPECT_EQ(whole.module_events[4].name, "colour_mod");
  EXPECT_EQ(whole.module_events[6].name, "crlf_mod2");
  EXPECT_DOUBLE_EQ(whole.module_events[6].ms, 5.5);
}

TEST(LogScanner, FindFailuresAreCollected) {
  const auto facts =
      scan("ok\nRuntimeError: Failed to find forward kernel 'k' from module 'm' for device 'cpu'\nmore\n", 5);
  ASSERT_EQ(facts.find_failures.size(), 1u);
  EXPECT_EQ(facts.find_failures[0], "RuntimeError: Failed to find forward kernel 'k' from module 'm' for device 'cpu'");
}

TEST(LogScanner, LastLineWithoutNewlineCounts) {
  const auto facts = scan("Module m abcdef0 load on device 'cpu' took 1.5 ms  (compiled)", 4);
  ASSERT_EQ(facts.module_events.size(), 1u);
}

TEST(LogScanner, OverlongLinesAreSkippedNotStored) {
  std::string text(1 << 20, 'x');
  text += "\nModule m abcdef0 load on device 'cpu' took 1.5 ms  (compiled)\n";
  const auto facts = scan(text, 4096);
  ASSERT_EQ(facts.module_events.size(), 1u);
  EXPECT_EQ(facts.bytes, text.size());
}

TEST(LogScanner, BinaryNoiseDoesNotBreakParsing) {
  std::string text = "\x00\xff\xfe garbage \x1b[ \n";
  text.push_back('\0');
  text += "\nModule m abcdef0 load on device 'cpu' took 2 ms  (cached)\n";
  const auto facts = scan(text, 3);
  ASSERT_EQ(facts.module_events.size(), 1u);
  EXPECT_EQ(facts.module_events[0].status, LoadStatus::cached);
}

}  // namespace
}  // namespace wcp::parse
