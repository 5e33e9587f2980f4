#include "analysis/unique_module_origin.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "facts/queries.h"

namespace wcp::analysis {
namespace {

// The "<module> <hash>" of one kernel's unique modules in each measured sample; empty when fewer
// than two samples recorded them (nothing to compare).
std::vector<std::set<std::string>> identities_per_sample(const Report& report, const std::string& kernel) {
  std::vector<std::set<std::string>> samples;
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok || !sample.cold_identities) continue;
    std::set<std::string>& mine = samples.emplace_back();
    for (const auto& identity : *sample.cold_identities) {
      const std::string name = identity.substr(0, identity.find(' '));
      if (unique_module_kernel(name) == kernel) mine.insert(identity);
    }
  }
  if (samples.size() < 2) samples.clear();
  return samples;
}

// Modules outside module="unique" whose hashes differ between samples: the program changed from
// run to run for a reason of its own, so a moving unique hash says nothing about one kernel.
bool other_modules_moved(const Report& report) {
  std::optional<std::set<std::string>> first;
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok || !sample.cold_identities) continue;
    std::set<std::string> others;
    for (const auto& identity : *sample.cold_identities) {
      if (!unique_module_kernel(identity.substr(0, identity.find(' ')))) others.insert(identity);
    }
    if (!first) {
      first = std::move(others);
    } else if (others != *first) {
      return true;
    }
  }
  return false;
}

}  // namespace

void classify_origin(const Report& report, std::size_t contents_in_run, UniqueModule& module) {
  if (contents_in_run > 1) {
    module.origin = UniqueOrigin::data;
    module.why = fmt::format(
        "this run built {} modules of this kernel with different content: its factory made it "
        "from different values at run time",
        contents_in_run);
    return;
  }
  const auto samples = identities_per_sample(report, module.kernel);
  const bool stable = !samples.empty() && std::all_of(samples.begin(), samples.end(),
                                                      [&](const auto& sample) { return sample == samples.front(); });
  if (!samples.empty() && !stable) {
    if (other_modules_moved(report)) {
      module.why =
          "its hash differed between samples, but so did other modules' hashes: the run changed for "
          "another reason";
      return;
    }
    module.origin = UniqueOrigin::data;
    module.why = "its content hash differed between samples: it is made from something that changes from run to run";
    return;
  }
  std::optional<ClosureKind> closure;
  if (module.snapshot != nullptr) closure = module.snapshot->closure;
  if (closure == ClosureKind::arguments) {
    module.origin = UniqueOrigin::data;
    module.why = "it captures an argument of the function that defined it: it is made from what its caller passes";
    return;
  }
  std::vector<std::string> missing;
  if (module.snapshot == nullptr) {
    missing.push_back("no kernel snapshot");
  } else if (!closure) {
    missing.push_back("what it captured was not recorded");
  } else if (closure == ClosureKind::values) {
    missing.push_back("it captures values other than literals (an array, a function, a Warp type or an object)");
  }
  if (samples.empty()) missing.push_back("fewer than two samples recorded its hash (measure with --samples 2 or more)");
  if (missing.empty()) {
    module.origin = UniqueOrigin::constants;
    module.why = fmt::format("it captures {} and had the same hash in all {} samples",
                             closure == ClosureKind::none ? "nothing" : "only literals", samples.size());
    return;
  }
  module.why = fmt::format("{}", fmt::join(missing, "; "));
}

}  // namespace wcp::analysis
