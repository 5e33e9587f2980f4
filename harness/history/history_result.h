#pragma once
// One result in the compile-time history: what a `measure`, `check`, `ab` arm or imported
// report measured, on which machine, at which commit. `history show` groups results by
// command and machine and orders them by commit; everything it says comes from these fields.
//
// Missing is not zero: a clock that was not measured (every sample failed, an imported report
// without module timers) is std::nullopt here and NULL in the store, and a count the writer did
// not record (a result migrated from schema 1) is std::nullopt, never 0.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/cold_start_clocks.h"
#include "stats/summary.h"

namespace wcp::history {

// Which command wrote the result. The string forms are stored; never repurpose one.
enum class Source { measure, check, ab_baseline, ab_candidate, import };
std::string to_string(Source source);
std::optional<Source> source_from_string(const std::string& text);

// The machine key: results are only compared with results of the same key, because compile
// cost is a property of the machine, the Warp version and the CUDA toolkit.
struct Machine {
  std::string host;
  std::string cpu_model;
  std::string gpu;           // "" when the machine has none (or nvidia-smi is absent)
  std::string driver;        // NVIDIA driver version; "" with no GPU
  std::string warp_version;  // as the measured process imported it; "" when unknown
  std::string cuda_toolkit;  // as Warp reported it; "" when unknown or CPU-only
  // The runner class (schema 6): machines of one class are interchangeable for noise,
  // baselines and steps (history/machine_class.h). "" in results recorded before it, which are
  // then matched by host, CPU and GPU as before.
  std::string machine_class;
  bool operator==(const Machine&) const = default;
  // One line a person can read: "host (cpu; gpu driver; Warp x; CUDA y)", or with a class
  // "class (driver; Warp x; CUDA y)".
  std::string key() const;
  // The same hardware for compile cost: the same class when both have one, else the same host,
  // CPU and GPU (results recorded before classes); the same GPU driver either way.
  bool same_hardware(const Machine& other) const;
};

// The commit of the measured directory; absent when it is not a git checkout.
struct Commit {
  std::string sha;
  bool dirty = false;  // tracked files differed from HEAD when the result was recorded
  bool operator==(const Commit&) const = default;
};

// A module built more than once in the cold run, and how often.
struct ModuleBuilds {
  std::string name;
  int builds = 0;
  bool operator==(const ModuleBuilds&) const = default;
};

// The clocks are the report's own type (model/cold_start_clocks.h), as the report measured them.
struct Result : ColdStartClocks {
  std::int64_t id = 0;      // the store's row id; 0 before it is stored
  std::string recorded_at;  // ISO 8601 UTC
  Source source = Source::measure;
  Machine machine;
  std::optional<Commit> commit;
  std::string name;  // the budget entry's name, the report's label, else the program's
  std::vector<std::string> argv;
  std::string cwd;
  int samples = 0;
  int failed_samples = 0;
  // cold_module_ms, cold_wall_ms, warm_wall_ms, compile_elapsed_ms: the ColdStartClocks base.
  std::optional<Summary> cold_units;  // when a machine reference was measured beside it
  std::string reference;              // that reference's name; "" without one
  std::optional<std::uint64_t> identities;
  std::optional<std::uint64_t> modules;
  std::optional<std::uint64_t> compiled_events;
  // The compiled "<module> <hash>" identities of the cold run, sorted; absent when the run
  // measured nothing.
  std::optional<std::vector<std::string>> identity_set;
  // Modules built more than once in the cold run (schema 2); absent in migrated results.
  std::optional<std::vector<ModuleBuilds>> rebuilt_modules;
  // The most modules any warm run compiled, and the .lto/.ltoir files the cold run left in its
  // cache (schema 3); absent in migrated results, and warm compiles when no warm run said.
  std::optional<std::uint64_t> warm_compiles;
  std::optional<std::uint64_t> lto_artifacts;
  std::string verdict;  // the budget's or comparison's verdict; "" when none was judged
  // The branch the measured commit was on (schema 6; history/branch.h); "" when unknown.
  std::string branch;
  // The whole report as `measure --json` writes it (schema 6), so a later check can be judged
  // against this run as against a baseline file (history/branch_baseline.h); absent in older
  // results.
  std::optional<std::string> report_json;
  // The warp-compile-probe version that measured it (schema 4); "" when unknown (older layouts,
  // a report that did not say). Another version may time differently, so noise is not pooled
  // across versions.
  std::string tool_version;
  // The CUDA build's CPU time per arch (schema 7, `--cuda-arch`; docs/cuda-build.md): each arch
  // is a series of its own in `history show`. Empty when none was measured, and in older results.
  std::map<int, Summary> cuda_compile_cpu_ms;

  bool measured() const { return samples > failed_samples; }
  bool operator==(const Result&) const = default;
};

}  // namespace wcp::history
