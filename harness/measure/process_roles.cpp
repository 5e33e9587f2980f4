#include "measure/process_roles.h"

#include <algorithm>

namespace wcp::measure {
namespace {

std::string program_of(const instrument::ProcessEvents& process, const std::string& cwd) {
  if (process.main) {
    std::string main = *process.main;
    if (!cwd.empty() && main.starts_with(cwd + "/")) main = main.substr(cwd.size() + 1);
    return main;
  }
  return process.argv.empty() ? process.executable : process.argv.front();
}

}  // namespace

std::vector<ProcessRecord> processes_of(const PassRecord& pass, const std::string& cwd) {
  const auto& events = pass.instrumentation;
  std::vector<ProcessRecord> records;
  std::string main_program;
  for (const auto& process : events.processes) {
    ProcessRecord record;
    record.pid = process.pid;
    record.ppid = process.ppid;
    record.argv = process.argv;
    if (process.mp_child) {
      record.role = ProcessRole::worker;
    } else if (process.pid == pass.run.pid) {
      record.role = ProcessRole::main;
    } else {
      record.role = ProcessRole::child;
    }
    record.program = program_of(process, cwd);
    if (record.role == ProcessRole::main) main_program = record.program;
    if (process.t > 0.0) record.started_s = process.t - pass.run.started_monotonic_s;
    if (process.exit) {
      record.exit_how = process.exit->how;
      record.ended_s = process.exit->t - pass.run.started_monotonic_s;
    }
    record.launches_recorded = process.launches.has_value();
    record.launches_final = process.launches_final;
    if (process.launches) record.launches = *process.launches;
    records.push_back(std::move(record));
  }
  // Workers are told apart by whose work they do, not by their pid.
  for (auto& record : records) {
    if (record.role == ProcessRole::worker) record.program = "multiprocessing worker of " + main_program;
  }
  std::stable_sort(records.begin(), records.end(), [](const ProcessRecord& a, const ProcessRecord& b) {
    return static_cast<int>(a.role) < static_cast<int>(b.role);
  });
  return records;
}

}  // namespace wcp::measure
