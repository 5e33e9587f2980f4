#pragma once
// What the instrumentation wrote: the JSON-lines event file, read back tolerantly (a line
// cut short by a crashing target is skipped and counted, never fatal).
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/launch_record.h"
#include "model/module_event.h"

namespace wcp::instrument {

struct InstrumentedLoad {
  std::string name;
  std::string device;
  std::optional<int> block_dim;
  bool failed = false;
  int pid = 0;
  LoadDetail detail;
};

struct InstrumentationEvents {
  bool attached = false;
  std::string warp_version;
  std::vector<InstrumentedLoad> loads;
  LaunchRecord launches;
  bool launches_recorded = false;  // an exit record arrived (launches are written at exit)
  std::vector<std::string> missing;
  std::vector<CacheClear> cache_clears;
  std::optional<std::string> kernel_cache_dir;
  std::optional<bool> cache_kernels;
  std::optional<bool> use_precompiled_headers;
  std::string cuda_toolkit;
  std::set<std::string> tape_kernels;
  bool tape_backward = false;
  std::size_t malformed_lines = 0;
};

// Parses event-file text (one JSON object per line).
InstrumentationEvents parse_instrumentation_events(std::string_view text);
// Reads the file; a missing file means the instrumentation never attached.
InstrumentationEvents read_instrumentation_events(const std::filesystem::path& path);

}  // namespace wcp::instrument
