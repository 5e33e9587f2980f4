#pragma once
// Turns a measured Report into a history Result. Pure: the machine, the commit and when it
// was recorded are given by the caller (history/machine.h, history/git_commit.h), so a saved
// report can be imported with what is known about it and nothing invented.
#include <optional>
#include <string>

#include "history/history_result.h"
#include "model/report.h"

namespace wcp::history {

struct ResultContext {
  Source source = Source::measure;
  Machine machine;
  std::optional<Commit> commit;
  std::string recorded_at;
  std::string name;     // overrides the name taken from the report ("" keeps it)
  std::string verdict;  // "" when nothing was judged
  std::string branch;   // "" when unknown
};

Result result_from_report(const Report& report, const ResultContext& context);

// The name a command is listed under: the report's label, else the command with its
// program's folder left out ("python app.py"), so one script measured from two checkouts is
// one series.
std::string command_name(const Report& report);
std::string command_name(const std::vector<std::string>& argv);

// The machine fields a report itself knows (Warp version, CUDA toolkit); host, CPU and GPU
// come from the machine that ran it.
void fill_from_report(Machine& machine, const Report& report);
// `machine` as the recorder would store a result of `report` with it: what the report knows
// fills what the host does not (a query for results like it: noise, a branch's baseline).
Machine machine_as_recorded(Machine machine, const Report& report);

}  // namespace wcp::history
