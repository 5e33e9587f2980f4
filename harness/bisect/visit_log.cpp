#include "bisect/visit_log.h"

#include <fstream>
#include <sstream>

#include "errors.h"

namespace wcp::bisect {

void append_visit(const std::filesystem::path& log, const Visit& visit) {
  std::string reason = visit.reason;
  for (auto& c : reason) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  // One write of one short line to a file opened for appending: a line never interleaves.
  std::ofstream out(log, std::ios::app);
  out << visit.sha << '\t' << to_string(visit.outcome) << '\t' << reason << '\n';
  out.flush();
  if (!out) throw RunError("cannot append to " + log.string());
}

std::vector<Visit> read_visits(const std::filesystem::path& log) {
  std::vector<Visit> visits;
  std::ifstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find('\t');
    if (first == std::string::npos) continue;
    const auto second = line.find('\t', first + 1);
    const auto outcome =
        step_outcome_from(line.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1));
    if (!outcome || first == 0) continue;
    visits.push_back({line.substr(0, first), *outcome, second == std::string::npos ? "" : line.substr(second + 1)});
  }
  return visits;
}

}  // namespace wcp::bisect
