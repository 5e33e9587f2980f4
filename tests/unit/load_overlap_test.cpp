// Which loads ran at the same time: separate threads, overlapping spans, one process and pass.
#include "facts/load_overlap.h"

#include <gtest/gtest.h>

namespace wcp {
namespace {

ModuleEvent load(const std::string& name, double start_s, double end_s, std::optional<long long> thread, int pid = 10,
                 Pass pass = Pass::cold) {
  ModuleEvent event;
  event.name = name;
  event.pass = pass;
  LoadDetail detail;
  detail.pid = pid;
  detail.start_s = start_s;
  detail.end_s = end_s;
  detail.thread = thread;
  event.detail = detail;
  return event;
}

TEST(LoadOverlap, AParallelPreloadIsOneGroupAndSerialLoadsAreNone) {
  const std::vector<ModuleEvent> events{
      load("serial_a", 1.0, 1.2, 10), load("serial_b", 1.3, 1.5, 10),                             // one after another
      load("p1", 2.0, 2.6, 11), load("p2", 2.05, 2.5, 12), load("p3", 2.1, 2.9, 13),               // a pool
      load("after", 3.0, 3.1, 10)};
  const auto groups = overlapping_loads(events);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].events, (std::vector<std::size_t>{2, 3, 4}));
  EXPECT_EQ(groups[0].threads, 3u);
  EXPECT_DOUBLE_EQ(groups[0].start_s, 2.0);
  EXPECT_DOUBLE_EQ(groups[0].end_s, 2.9);
}

TEST(LoadOverlap, OverlapOnOneThreadOrAcrossProcessesOrPassesIsNotParallelLoading) {
  // Nested spans on one thread (a load inside a load's callback) and two processes or passes
  // that happen to overlap in time are not one program loading in parallel.
  const std::vector<ModuleEvent> events{load("a", 1.0, 2.0, 10), load("b", 1.5, 1.8, 10),
                                        load("c", 1.0, 2.0, 20, 20), load("d", 1.0, 2.0, 10, 10, Pass::warm)};
  EXPECT_TRUE(overlapping_loads(events).empty());
}

TEST(LoadOverlap, LoadsWithoutAThreadAreLeftOut) {
  // Reports before schema 4 and loads known from Warp's log alone carry no thread.
  const std::vector<ModuleEvent> events{load("a", 1.0, 2.0, std::nullopt), load("b", 1.5, 1.8, std::nullopt)};
  EXPECT_TRUE(overlapping_loads(events).empty());
}

}  // namespace
}  // namespace wcp
