// Where a pass's loads come from (measure/load_events.h): the instrumentation's loads with
// Warp's timer where the log printed one, the log's own loads added, and no figure at all for a
// pass that saw nothing (missing is not zero).
#include <gtest/gtest.h>

#include "measure/load_events.h"

namespace wcp::measure {
namespace {

instrument::InstrumentedLoad load(std::string name, std::string full_hash, bool compiled, double t_start, double t_end,
                                  std::optional<double> native_ms) {
  instrument::InstrumentedLoad out;
  out.name = std::move(name);
  out.device = "cpu";
  out.t_start = t_start;
  out.t_end = t_end;
  out.detail.full_hash = std::move(full_hash);
  out.detail.compiled = compiled;
  out.native_ms = native_ms;
  return out;
}

ModuleEvent logged(std::string name, std::string hash, LoadStatus status, double ms) {
  ModuleEvent event;
  event.name = std::move(name);
  event.hash = std::move(hash);
  event.device = "cpu";
  event.status = status;
  event.ms = ms;
  return event;
}

PassRecord attached_pass() {
  PassRecord pass;
  instrument::ProcessEvents process;
  process.pid = 10;
  process.attached = true;
  pass.instrumentation.processes.push_back(process);
  pass.run.started_monotonic_s = 100.0;
  return pass;
}

TEST(LoadEvents, TheInstrumentationsLoadsTakeWarpsTimerWhereItPrintedOne) {
  PassRecord pass = attached_pass();
  pass.instrumentation.loads.push_back(load("__main__", "1ad6ff6aa", true, 101.0, 107.2, 6100.0));
  pass.instrumentation.loads.push_back(load("__main__", "7933adabb", true, 108.0, 108.4, 380.0));
  pass.log.module_events.push_back(logged("__main__", "1ad6ff6", LoadStatus::compiled, 6249.3));
  const ObservedLoads loads = observe_loads(pass);
  ASSERT_TRUE(loads.observed);
  ASSERT_EQ(loads.events.size(), 2u);
  EXPECT_EQ(loads.events[0].timer, LoadTimer::warp);
  EXPECT_DOUBLE_EQ(loads.events[0].ms, 6249.3);
  EXPECT_EQ(loads.events[1].timer, LoadTimer::probe);
  EXPECT_NEAR(loads.events[1].ms, 400.0, 1e-6);
  EXPECT_NEAR(loads.events[1].detail->start_s, 8.0, 1e-9);
  EXPECT_NEAR(*module_work(loads, true), 6649.3, 1e-6);
  EXPECT_NEAR(*native_compile(loads), 6480.0, 1e-6);
}

TEST(LoadEvents, LoadsOnlyTheLogSawJoinAsTheLogHasThem) {
  PassRecord pass = attached_pass();
  pass.instrumentation.loads.push_back(load("a", "aaaaaaa1", true, 101.0, 102.0, 900.0));
  pass.log.module_events.push_back(logged("a", "aaaaaaa", LoadStatus::compiled, 1000.0));
  pass.log.module_events.push_back(logged("child", "ccccccc", LoadStatus::compiled, 500.0));
  const ObservedLoads loads = observe_loads(pass);
  ASSERT_EQ(loads.events.size(), 2u);
  EXPECT_EQ(loads.events[1].name, "child");
  EXPECT_FALSE(loads.events[1].detail.has_value());
  // The child's native time is unknown: no build hook saw it and no compiler timer was printed.
  EXPECT_FALSE(native_compile(loads).has_value());
  EXPECT_NEAR(*module_work(loads, true), 1500.0, 1e-6);
}

TEST(LoadEvents, AnAttachedInstrumentationThatSawNoLoadIsAMeasuredZero) {
  const ObservedLoads loads = observe_loads(attached_pass());
  ASSERT_TRUE(loads.observed);
  EXPECT_EQ(*module_work(loads, true), 0.0);
  EXPECT_EQ(*native_compile(loads), 0.0);
}

TEST(LoadEvents, NoInstrumentationAndNoTimersIsUnavailableNotZero) {
  const ObservedLoads loads = observe_loads(PassRecord{});
  EXPECT_FALSE(loads.observed);
  EXPECT_NE(loads.unobserved.find("did not attach"), std::string::npos);
  EXPECT_FALSE(module_work(loads, true).has_value());
  EXPECT_FALSE(native_compile(loads).has_value());
}

TEST(LoadEvents, MissingLoadHooksAndNoTimersIsUnavailable) {
  PassRecord pass = attached_pass();
  pass.instrumentation.processes.front().missing.push_back("module loads (probe error: RuntimeError)");
  const ObservedLoads loads = observe_loads(pass);
  EXPECT_FALSE(loads.observed);
  EXPECT_NE(loads.unobserved.find("module loads (probe error: RuntimeError)"), std::string::npos);
}

TEST(LoadEvents, GeneratedSourceBesideNoCompiledLoadIsAContradiction) {
  ObservedLoads loads = observe_loads(attached_pass());
  CacheInventory cache;
  cache.generated_source_bytes = 5800;
  cache.module_directories = 1;
  check_against_cache(loads, cache);
  EXPECT_FALSE(loads.observed);
  EXPECT_NE(loads.unobserved.find("modules were built but none was observed"), std::string::npos);
  EXPECT_FALSE(module_work(loads, true).has_value());
}

TEST(LoadEvents, GeneratedSourceBesideUnobservedLoadsIsStatedToo) {
  ObservedLoads loads = observe_loads(PassRecord{});
  CacheInventory cache;
  cache.generated_source_bytes = 5800;
  check_against_cache(loads, cache);
  EXPECT_NE(loads.unobserved.find("did not attach"), std::string::npos);
  EXPECT_NE(loads.unobserved.find("modules were built but none was observed"), std::string::npos);
}

TEST(LoadEvents, ACompiledLoadWhoseBuildWentUnseenHasNoNativeTime) {
  PassRecord pass = attached_pass();
  pass.instrumentation.loads.push_back(load("a", "aaaaaaa1", true, 101.0, 102.0, std::nullopt));
  pass.instrumentation.loads.push_back(load("b", "bbbbbbb1", false, 103.0, 103.001, 0.0));
  const ObservedLoads loads = observe_loads(pass);
  EXPECT_TRUE(module_work(loads, true).has_value());
  EXPECT_FALSE(native_compile(loads).has_value());
}

}  // namespace
}  // namespace wcp::measure

namespace wcp {
namespace {

// Both sources (Warp's log, the instrumentation's records) make their events through
// loaded_module: a load that did not compile built no precompiled header, whatever its process
// reported around it, and every other value is carried as given.
TEST(LoadedModule, OnlyACompiledLoadBuiltTheHeader) {
  for (const LoadStatus status : {LoadStatus::compiled, LoadStatus::cached, LoadStatus::error}) {
    const ModuleEvent event =
        loaded_module({"m", "abc1234", "cpu", 128}, 5.5, status, 1.25, /*built_pch=*/true, LoadTimer::probe);
    EXPECT_EQ(event.built_pch, status == LoadStatus::compiled) << to_string(status);
    EXPECT_EQ(identity_of(event), (ModuleIdentity{"m", "abc1234", "cpu", 128}));
    EXPECT_DOUBLE_EQ(event.ms, 5.5);
    EXPECT_EQ(event.status, status);
    EXPECT_EQ(event.native_ms, 1.25);
    EXPECT_EQ(event.timer, LoadTimer::probe);
  }
  EXPECT_FALSE(
      loaded_module({"m", "", "cpu", std::nullopt}, 1.0, LoadStatus::compiled, std::nullopt, false, LoadTimer::warp)
          .built_pch);
}

}  // namespace
}  // namespace wcp
