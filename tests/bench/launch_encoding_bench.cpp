// Cost of recording launches run-length encoded: a loop of identical launches must cost
// O(1) memory and a few nanoseconds each.
#include <benchmark/benchmark.h>

#include "model/launch.h"

namespace {

void BM_AppendRepeatedLaunch(benchmark::State& state) {
  const wcp::Launch launch{"integrate", "sim", {1 << 20}, "cuda:0", {"vec3f", "vec3f", "float32"}, 256, false};
  for (auto _ : state) {
    std::vector<wcp::LaunchRun> runs;
    for (int i = 0; i < state.range(0); ++i) wcp::append_launch(runs, launch);
    benchmark::DoNotOptimize(runs.data());
    if (runs.size() != 1) state.SkipWithError("identical launches did not collapse");
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_AppendRepeatedLaunch)->Arg(1'000'000)->Unit(benchmark::kMillisecond);

void BM_AppendAlternatingLaunches(benchmark::State& state) {
  const wcp::Launch a{"integrate", "sim", {1 << 20}, "cuda:0", {"vec3f", "vec3f"}, 256, false};
  const wcp::Launch b{"collide", "sim", {1 << 20}, "cuda:0", {"vec3f", "int32"}, 256, false};
  for (auto _ : state) {
    std::vector<wcp::LaunchRun> runs;
    for (int i = 0; i < state.range(0); ++i) wcp::append_launch(runs, i % 2 ? a : b);
    benchmark::DoNotOptimize(runs.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_AppendAlternatingLaunches)->Arg(100'000)->Unit(benchmark::kMillisecond);

}  // namespace
