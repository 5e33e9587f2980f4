// How fast the log scanner reads a target's output. Goal: >= 1 GB/s on one core, so that
// parsing never shows up next to the run it measures.
#include <benchmark/benchmark.h>

#include <string>

#include "parse/log_scanner.h"

namespace {

// A realistic mix: mostly application output, a Warp banner, and module/compile timer
// lines every few hundred lines.
std::string make_log(std::size_t target_bytes) {
  std::string log = "Warp 1.19.0 initialized:\n   CUDA Toolkit 13.4, CUDA driver not available\n";
  std::size_t line = 0;
  while (log.size() < target_bytes) {
    if (line % 400 == 0) {
      log += "Module physics.contacts 1a2b3c4 load on device 'cuda:0' (block_dim=256) ...\n";
      log += "    Compile CUDA (arch=sm_90, mode=release, block_dim=256) took 812.44 ms\n";
      log += "Module physics.contacts 1a2b3c4 load on device 'cuda:0' (block_dim=256) took 845.10 ms  (compiled)\n";
    } else if (line % 7 == 0) {
      log += "step 1234: energy=0.0012345 contacts=512 residual=3.2e-07 dt=0.0016667\n";
    } else {
      log += "[sim] frame " + std::to_string(line) + " done, 16.4 ms, 60.9 fps, particles=1048576, solver=xpbd\n";
    }
    ++line;
  }
  return log;
}

void BM_ScanLog(benchmark::State& state) {
  const std::string log = make_log(64 << 20);
  const std::size_t chunk = static_cast<std::size_t>(state.range(0));
  for (auto _ : state) {
    wcp::parse::LogScanner scanner;
    for (std::size_t at = 0; at < log.size(); at += chunk) scanner.feed(std::string_view(log).substr(at, chunk));
    scanner.finish();
    benchmark::DoNotOptimize(scanner.facts().module_events.size());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * log.size()));
}
BENCHMARK(BM_ScanLog)->Arg(64 << 10)->Unit(benchmark::kMillisecond);

void BM_ScanLogWithColour(benchmark::State& state) {
  std::string log = make_log(16 << 20);
  // Every line coloured, as a terminal-aware logger might print it.
  std::string coloured;
  coloured.reserve(log.size() * 2);
  std::size_t start = 0;
  while (start < log.size()) {
    const auto end = log.find('\n', start);
    coloured += "\x1b[32m" + log.substr(start, end - start) + "\x1b[0m\n";
    start = end + 1;
  }
  for (auto _ : state) {
    wcp::parse::LogScanner scanner;
    for (std::size_t at = 0; at < coloured.size(); at += 65536) scanner.feed(std::string_view(coloured).substr(at, 65536));
    scanner.finish();
    benchmark::DoNotOptimize(scanner.facts().module_events.size());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * coloured.size()));
}
BENCHMARK(BM_ScanLogWithColour)->Unit(benchmark::kMillisecond);

}  // namespace
