#include "bisect/bisect_run_output.h"

#include <regex>
#include <sstream>

namespace wcp::bisect {

BisectRunResult parse_bisect_run_output(std::string_view output) {
  static const std::regex first_bad(R"(^([0-9a-f]{40,64}) is the first bad commit\s*$)");
  static const std::regex sha_line(R"(^([0-9a-f]{40,64})\s*$)");
  BisectRunResult result;
  std::istringstream lines{std::string(output)};
  std::string line;
  bool in_candidates = false;
  std::smatch match;
  while (std::getline(lines, line)) {
    if (std::regex_match(line, match, first_bad)) {
      result.end = BisectEnd::first_bad;
      result.first_bad = match[1];
      result.candidates.clear();
      in_candidates = false;
    } else if (line.rfind("There are only 'skip'ped commits left to test", 0) == 0) {
      result.end = BisectEnd::only_skipped;
      result.candidates.clear();
      in_candidates = true;
    } else if (in_candidates && std::regex_match(line, match, sha_line)) {
      result.candidates.push_back(match[1]);
    } else if (in_candidates && line.rfind("The first bad commit could be any of", 0) != 0) {
      in_candidates = false;
    }
  }
  return result;
}

}  // namespace wcp::bisect
