#pragma once
// What may differ between two runs of the same program that print the same thing: the
// comparison of a program's output (with and without the probe, or with and without a lever)
// masks exactly this fixed list, and nothing else (docs/instrumentation.md#output):
//
//   1. durations the program prints: a number with a time unit after it ("took 12.34 ms",
//      "in 3.2s", "1.5e-3 s"), with the same duration as a clock in parentheses right after it
//      when there is one ("in 149.17s (0:02:29)", as pytest writes runs over a minute),
//      replaced by "<duration>";
//   2. the run's own private paths (its kernel cache, its CUDA cache), replaced by a name: each
//      run has its own, and Warp prints the kernel cache's;
//   3. lines matching a pattern the user gave (`--ignore-output REGEX`), left out entirely.
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wcp {

struct OutputMasks {
  // Exact text -> its placeholder, longest first (a path inside another is replaced after it).
  std::vector<std::pair<std::string, std::string>> literals;
  std::vector<std::regex> ignored_lines;
  std::vector<std::string> ignored_patterns;  // the same, as the user wrote them (for reports)

  void add_literal(std::string text, std::string placeholder);
  // Throws UsageError naming the option when the pattern is not a valid ECMAScript regex.
  void add_ignored(const std::string& pattern, std::string_view option);
};

// Every number followed by a time unit, replaced by "<duration>" (rule 1).
std::string mask_durations(std::string_view line);

// The line as compared: literals replaced, then durations masked.
std::string mask_line(std::string_view line, const OutputMasks& masks);

// Rule 3: the line is left out of the comparison.
bool is_ignored(std::string_view line, const OutputMasks& masks);

}  // namespace wcp
