// Cost of judging workload equivalence on launch records of a million launches: the
// structured record of a periodic program (one loop), and the worst case, a record with no
// structure at all (a million single-launch runs), both streamed without expansion. Goal: a
// compare of two 10^6-launch reports in under 1 s (issue: a launch record that grows with the
// program's structure). Also reading such a report from JSON.
#include <benchmark/benchmark.h>

#include <random>

#include "codec/report_json.h"
#include "verdict/workload.h"

namespace {

wcp::LaunchSignature launch(const std::string& kernel, std::int64_t dim) {
  return {kernel, "sim", {dim}, "cpu", {"vec3f", "vec3f", ""}, 0, false, "launch"};
}

wcp::Report with(wcp::LaunchRecord record) {
  wcp::Report report;
  report.samples = 1;
  report.instrumentation.attached = true;
  wcp::ProcessRecord main;
  main.launches_recorded = true;
  main.launches = std::move(record);
  report.processes.push_back(std::move(main));
  return report;
}

// A million launches alternating two kernels, as the instrumentation encodes them: one loop.
wcp::Report periodic() {
  wcp::LaunchRecord record;
  record.signatures = {launch("integrate", 1 << 20), launch("collide", 1 << 20)};
  wcp::SequenceItem loop;
  loop.kind = wcp::SequenceItem::Kind::loop;
  loop.count = 500'000;
  loop.body.resize(2);
  loop.body[1].signature = 1;
  record.sequence.push_back(loop);
  return with(record);
}

// A million launches with no repetition to find: every launch its own run.
wcp::Report aperiodic(unsigned seed) {
  std::mt19937 random(seed);
  wcp::LaunchRecord record;
  for (int i = 0; i < 1'000'000; ++i) record.append(launch(i % 2 ? "integrate" : "collide", 1 + (random() % 3)));
  return with(record);
}

void BM_ComparePeriodicMillion(benchmark::State& state) {
  const auto a = periodic(), b = periodic();
  for (auto _ : state) benchmark::DoNotOptimize(wcp::verdict::check_workload(a, b));
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_ComparePeriodicMillion)->Unit(benchmark::kMillisecond);

void BM_CompareAperiodicMillion(benchmark::State& state) {
  const auto a = aperiodic(1), b = aperiodic(1);
  for (auto _ : state) benchmark::DoNotOptimize(wcp::verdict::check_workload(a, b));
  state.SetItemsProcessed(state.iterations() * 1'000'000);
}
BENCHMARK(BM_CompareAperiodicMillion)->Unit(benchmark::kMillisecond);

void BM_ReadAperiodicMillionReport(benchmark::State& state) {
  const std::string text = wcp::report_to_json_text(aperiodic(2));
  state.counters["bytes"] = static_cast<double>(text.size());
  for (auto _ : state) benchmark::DoNotOptimize(wcp::report_from_json_text(text, "bench.json"));
}
BENCHMARK(BM_ReadAperiodicMillionReport)->Unit(benchmark::kMillisecond);

}  // namespace
