#pragma once
// The launch record: the workload's fingerprint, exact and compact (docs/launch-record.md).
// A table of distinct launch signatures and the sequence of launches as signature indices
// with nested repetition: runs of one signature, loops of identical iterations, and loops
// whose iterations differ only in counts (a solver's iteration count). It grows with the
// program's structure, not its length: a million alternating launches are one loop.
//
// The instrumentation builds it online in the target (harness/instrument/python); this side
// reads it, writes it back, streams it without expanding it, and builds simple records from
// flat launch lists (the original probe's, schema 1's).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace wcp {

// One distinct launch: what was launched, where and how.
struct LaunchSignature {
  std::string kernel;
  std::string module;
  std::vector<std::int64_t> dim;
  std::string device;
  std::vector<std::string> dtypes;  // one per argument: its dtype, "" for an argument without one
  int block_dim = 0;                // 0 when Warp chose the default
  bool adjoint = false;
  // How it was launched: "launch", "launch_tiled", "cmd" (a recorded Launch replayed),
  // "capture" (recorded into a CUDA graph), "graph" (a captured graph replayed).
  std::string entry = "launch";
  bool operator==(const LaunchSignature&) const = default;
};

struct SequenceItem;

// The value filling one hole of a loop template: a count, or a whole item.
struct FillValue {
  std::uint64_t count = 0;
  std::vector<SequenceItem> item;  // one element for a whole-item hole, else empty
  bool operator==(const FillValue&) const;
};

// `repeat` consecutive iterations of a varying loop that all use this fill.
struct Iteration {
  std::vector<FillValue> fill;
  std::uint64_t repeat = 1;
  bool operator==(const Iteration&) const;
};

struct SequenceItem {
  enum class Kind : std::uint8_t {
    run,         // `count` launches of `signature`
    loop,        // `body`, `count` times, identically
    varying,     // `body` is a template; `iterations` fill its holes
    hole_count,  // in a template: a run of `signature` whose count comes from the fill
    hole_times,  // in a template: an exact loop over `body` whose times come from the fill
    hole_item,   // in a template: a whole item given by the fill
  };
  Kind kind = Kind::run;
  std::uint32_t signature = 0;
  std::uint64_t count = 1;
  std::vector<SequenceItem> body;
  std::vector<Iteration> iterations;
  bool operator==(const SequenceItem&) const;
};

struct LaunchRecord {
  std::vector<LaunchSignature> signatures;
  std::vector<SequenceItem> sequence;
  std::map<std::string, std::uint64_t> unrecorded;  // launch paths seen but not recordable, with counts

  // Appends launches at the end, extending the last run when it has the same signature: how
  // flat launch lists become records.
  void append(const LaunchSignature& signature, std::uint64_t count = 1);
  bool operator==(const LaunchRecord&) const = default;
};

// Launches in the record, without expanding it.
std::uint64_t total_launches(const LaunchRecord& record);
// Launches per signature index, without expanding it.
std::vector<std::uint64_t> launches_per_signature(const LaunchRecord& record);

// Walks the sequence as runs of one signature, in order, holding only a stack as deep as the
// nesting: a loop of a million iterations is never expanded in memory.
class LaunchStream {
 public:
  explicit LaunchStream(const LaunchRecord& record);
  // The next run: (signature index, launches); nullopt at the end.
  std::optional<std::pair<std::uint32_t, std::uint64_t>> next();

 private:
  struct Frame {
    const std::vector<SequenceItem>* items = nullptr;  // the list being walked
    std::size_t index = 0;
    const std::vector<FillValue>* fill = nullptr;      // the fill of the template being walked
    std::size_t fill_index = 0;                        // the next hole's value
    std::size_t fill_base = 0;                         // where this list's holes start (a loop restarts there)
    std::uint64_t remaining = 0;                       // repetitions left of the list, this one included
    const SequenceItem* varying = nullptr;             // set while walking a varying loop's template
    std::size_t iteration = 0;
  };
  std::vector<Frame> stack_;
};

// Expands a record into one signature index per launch. For tests and small records only.
std::vector<std::uint32_t> expand(const LaunchRecord& record);

// Checks the grammar's invariants (indices in the table, counts positive, fills matching their
// templates, holes only in templates); returns what is wrong, or nullopt.
std::optional<std::string> check_record(const LaunchRecord& record);

}  // namespace wcp
