#pragma once
// What a history says over time: results grouped into series (one command on one machine),
// one point per commit, and the steps between them.
//
// A step is a commit where the structure of what Warp compiled changed against the previous
// measured commit (identities per module, builds per module, warm compiles, LTO artifacts:
// history/structure.h), or where the cold module work's median left the budget rule's noise
// band of the results since the last step (max(1 %, 2 × MAD) of their pooled samples,
// model/stats.h noise_band) and the next two measured commits of the same structure stayed
// beyond it on the same side: one slow run is noise, three in a row are a level. New hashes
// with the same structure (edited kernel code) are a note on the commit, never a step; so is a
// level that moved at a commit that compiled the very identities of the one before it (the
// runner's level, not the code's: the band restarts there). Commits
// whose every sample failed are shown but never compared (missing is not zero).
// docs/history.md has the rules.
#include <optional>
#include <string>
#include <vector>

#include "history/history_result.h"
#include "history/structure.h"

namespace wcp::history {

// The band needs samples to estimate noise from: fewer previous sample values than this, or
// values from fewer commits than kMinimumBandCommits, and the clock rule waits (the identity rule
// does not). Two commits at least, because the spread within one commit's samples misses the
// spread between runs at different times: after a step, a band from that commit's three quiet
// samples alone called the next commit (same code) a step on a loaded machine.
inline constexpr std::size_t kMinimumBandSamples = 3;
inline constexpr std::size_t kMinimumBandCommits = 2;

// Which clock the level rule reads. Cold units (cold module work / a reference build measured
// in the same run) divide out the machine's load, so a busier machine is not a step; they are
// used when every measured commit of the series has them from the same reference, else the
// cold module work in ms.
// cuda_compile_cpu_ms: a series of one arch's CUDA build (Series::cuda_arch), whose results carry
// that arch's CPU time in their module clocks.
enum class LevelClock { cold_module_ms, cold_units, cold_module_cpu_ms, cuda_compile_cpu_ms };
std::string to_string(LevelClock clock);

struct Step {
  bool structure_changed = false;
  bool clock_left_band = false;
  // This commit's median − the median of the results since the last step, and the band it left
  // (or stayed in), in the series' level clock (ms or cold units).
  std::optional<double> delta;
  std::optional<double> band;
  StructureChange structure;  // against the previous measured commit
  std::string summary;        // "cold module work +1.2 s at abc1234; identities 5 → 7; module X built twice"
};

// What a commit changed that is not a step: kernel code was edited (new hashes, the same
// structure), or the level moved while the commit compiled exactly the identities of the one
// before it (issue 63: the same code compiled by the same toolchain, since a series holds one
// Warp and toolkit, is the same work; the runner moved). Their string forms are in the JSON;
// never repurpose one.
enum class NoteKind { kernel_code_changed, runner_level_moved };
std::string to_string(NoteKind kind);

struct Note {
  NoteKind kind = NoteKind::kernel_code_changed;
  std::vector<std::string> modules;  // the modules whose hashes changed
  std::vector<std::string> identities_added;
  std::vector<std::string> identities_removed;
  std::string summary;  // "kernel code changed in __main__"
};

// How a commit's median sits against the band of the results before it.
// above/below: left the band and the next two measured commits stayed beyond it on that side (a
// step); returned: left it but a following commit came back; unconfirmed: left it and fewer than
// two measured commits of the same structure follow (yet: a commit whose structure changed is
// its own step, and its level says nothing about this one's).
enum class ClockMove { none, within, above, below, returned, unconfirmed };
std::string to_string(ClockMove move);

struct Point {
  std::optional<Commit> commit;     // absent: the result was not recorded in a git checkout
  Result result;                    // the commit's latest result (its latest measured one, if any)
  int results = 0;                  // how many results the history holds for this commit
  std::optional<double> change_ms;  // median − the previous measured commit's median (the trend)
  ClockMove clock = ClockMove::none;
  std::optional<Step> step;
  std::optional<Note> note;
};

struct Series {
  std::string name;
  Machine machine;
  LevelClock level_clock = LevelClock::cold_module_ms;
  // A series of the CUDA build for this arch (`--cuda-arch`, issue 64), beside the command's own
  // series: "<name> · CUDA sm_86"; 0 for a command's own series.
  int cuda_arch = 0;
  std::vector<Point> points;  // in the order commits were first recorded
};

// Groups results (oldest first) into series and finds their steps. `name` and `host`, when not
// empty, keep only the series whose name or host matches.
std::vector<Series> build_series(const std::vector<Result>& results, const std::string& name = "",
                                 const std::string& host = "");

std::string short_sha(const std::optional<Commit>& commit);  // "abc1234" (+ "-dirty"), "no commit"

}  // namespace wcp::history
