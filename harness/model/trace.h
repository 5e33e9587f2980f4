#pragma once
// Where the time went, as a timeline of every sample: one track per process of each pass of
// each sample, with a slice per module build (and one for the process's life). Written as a
// Chrome/Perfetto trace by `measure --trace`.
#include <map>
#include <string>
#include <vector>

#include "model/pass.h"

namespace wcp {

struct TraceSlice {
  std::string name;      // "__main__ 1ad6ff6", or the process's program for its lifetime slice
  std::string category;  // "compiled", "cached", "error", "process"
  double start_s = 0.0;  // on the run's clock: seconds since the tool started the command
  double end_s = 0.0;
  std::map<std::string, std::string> args;  // hash, device, block_dim, ms, trigger, …
};

struct TraceTrack {
  int sample = 0;
  Pass pass = Pass::cold;
  int pid = 0;             // the OS process
  long long thread = 0;    // the OS thread of a track of loads off the main thread; 0: the process's track
  std::string label;       // "pid 1234 main app.py"
  std::vector<TraceSlice> slices;
};

}  // namespace wcp
