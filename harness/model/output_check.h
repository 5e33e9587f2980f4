#pragma once
// Whether the program printed the same and exited the same with and without the probe
// (`measure --check-output`, schema 6): the rule that the probe changes nothing, checked on the
// user's own program. Outputs are compared line by line after the fixed masks of
// run/output_masks.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/pass.h"

namespace wcp {

// Where two outputs first differ: the 1-based line and each side's masked text there. A side's
// text is absent when it had ended there, or when the line lies past the lines kept.
struct OutputDifference {
  std::uint64_t line = 0;
  std::optional<std::string> expected;
  std::optional<std::string> actual;
  bool expected_ended = false;
  bool actual_ended = false;
  bool reordered = false;  // both sides hold the same lines, in another order
  bool operator==(const OutputDifference&) const = default;
};

// Writers that ran at once in the probed pass: processes of the program, and threads that loaded
// modules. Where there were several, the order in which their lines met in one pipe is the
// scheduler's, not the program's, so a difference of order alone is not a change.
struct ConcurrentWriters {
  int processes = 1;
  int load_threads = 1;  // most threads that loaded modules in one process
  bool several() const { return processes > 1 || load_threads > 1; }
  bool operator==(const ConcurrentWriters&) const = default;
};

// One run of the program without the probe against the same pass of the first sample.
struct PassOutputCheck {
  Pass pass = Pass::cold;
  int bare_exit_code = 0;
  int probe_exit_code = 0;
  std::uint64_t stdout_lines = 0;  // compared lines without the probe
  std::uint64_t stderr_lines = 0;
  std::uint64_t ignored_lines = 0;  // left out by --ignore-output, both streams, both sides
  std::optional<OutputDifference> stdout_difference;
  std::optional<OutputDifference> stderr_difference;
  std::optional<ConcurrentWriters> writers;  // unknown where the instrumentation did not attach
  // A stream that differs only in the order of its lines, where several writers ran at once.
  bool only_reordered(const std::optional<OutputDifference>& difference) const {
    return difference && difference->reordered && writers && writers->several();
  }
  bool stream_same(const std::optional<OutputDifference>& difference) const {
    return !difference || only_reordered(difference);
  }
  bool same() const {
    return bare_exit_code == probe_exit_code && stream_same(stdout_difference) && stream_same(stderr_difference);
  }
  bool operator==(const PassOutputCheck&) const = default;
};

struct OutputCheck {
  std::vector<PassOutputCheck> passes;        // cold, then warm when both sides had one
  std::vector<std::string> ignored_patterns;  // --ignore-output, as given
  std::vector<std::string> not_compared;      // passes that could not be compared, and why
  bool same() const {
    for (const auto& pass : passes) {
      if (!pass.same()) return false;
    }
    return !passes.empty();
  }
  bool operator==(const OutputCheck&) const = default;
};

}  // namespace wcp
