#pragma once
// Which installed distribution a kernel's file ships in, read from the `*.dist-info` folders
// beside it after the run. The instrumentation used to ask importlib.metadata inside the
// measured process, which reads every installed distribution: inside Warp's timed load that
// added 0.6–1.1 s to a process's first load on a GPU machine (docs/instrumentation.md, "Cost").
// Here it costs the measured program nothing.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "instrument/instrumentation_events.h"
#include "model/module_event.h"

namespace wcp::measure {

class DistributionIndex {
 public:
  // The distribution whose dist-info lists the top-level package (or module) that `file` is
  // part of, looking in the folders above `file`; nullopt for code no distribution ships (the
  // application's own). Results are cached per folder, so a run's kernels cost one read of
  // each site folder's metadata.
  std::optional<Package> package_of(const std::filesystem::path& file);

 private:
  struct SiteFolder {
    std::vector<std::filesystem::path> dist_infos;  // empty: not a site folder
    std::map<std::string, std::optional<Package>, std::less<>> by_top_level;
  };
  SiteFolder& folder(const std::filesystem::path& path);
  std::map<std::filesystem::path, SiteFolder> folders_;
};

// Fills `package` of every recorded kernel from its file.
void name_distributions(instrument::InstrumentationEvents& events, DistributionIndex& index);

}  // namespace wcp::measure
