#include "measure/interop_launches.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

namespace wcp::measure {

InteropLaunch interop_launch(const LaunchSignature& signature) {
  InteropLaunch launch;
  launch.kernel = signature.kernel;
  launch.module = signature.module;
  launch.dim = signature.dim;
  launch.device = signature.device;
  // The record keeps "" for an argument without a dtype (a Python scalar), so that argument
  // positions line up; the original probe lists only the arguments that have one.
  std::copy_if(signature.dtypes.begin(), signature.dtypes.end(), std::back_inserter(launch.dtypes),
               [](const std::string& dtype) { return !dtype.empty(); });
  if (signature.block_dim != 0) launch.block_dim = signature.block_dim;
  launch.adjoint = signature.adjoint;
  return launch;
}

void add_interop_launches(Report& report, std::uint64_t limit) {
  const auto main_process =
      std::find_if(report.processes.begin(), report.processes.end(),
                   [](const ProcessRecord& process) { return process.role == ProcessRole::main; });
  if (main_process == report.processes.end() || !main_process->launches_recorded) return;
  const std::uint64_t count = total_launches(main_process->launches);
  if (count > limit) {
    report.notes.push_back(fmt::format(
        "The main process made {} launches, more than {}: the original probe's flat `launches` list is left out "
        "(the launch record in `processes` has them all).",
        count, limit));
    return;
  }
  // Each signature is converted once; the stream yields the record's runs in order, and a run
  // of n launches becomes n copies.
  std::vector<InteropLaunch> by_signature;
  by_signature.reserve(main_process->launches.signatures.size());
  for (const auto& signature : main_process->launches.signatures) by_signature.push_back(interop_launch(signature));
  std::vector<InteropLaunch> launches;
  launches.reserve(count);
  LaunchStream stream(main_process->launches);
  while (const auto run = stream.next()) launches.insert(launches.end(), run->second, by_signature.at(run->first));
  report.interop_launches = std::move(launches);
}

}  // namespace wcp::measure
