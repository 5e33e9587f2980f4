#pragma once
// Appends the results of `measure`, `check` and `ab` to the history named by --history LOCATION
// or, without it, WCP_HISTORY (an SQLite file or a PostgreSQL URL: history/history_location.h).
// The history is opened and checked when the command starts, so a refused one (exit 4) stops
// it before anything runs; results are appended as they are judged.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "history/history_store.h"
#include "io/environment.h"
#include "model/report.h"

namespace wcp {
class InterruptWatch;
}

namespace wcp::history {

// What a command's --history, --machine-class and --branch said ("" when not given).
struct HistoryChoice {
  std::string location;       // a file, sqlite:FILE or postgresql://…; "" for WCP_HISTORY
  std::string machine_class;  // "" for WCP_MACHINE_CLASS or the fingerprint
  std::string branch;         // "" for WCP_BRANCH, the CI's variable or git
};

struct Recording {
  Source source = Source::measure;
  std::filesystem::path directory;  // where the command ran: its commit is recorded
  std::string name;                 // "" keeps the report's own name
  std::string verdict;              // "" when nothing was judged
};

class Recorder {
 public:
  Recorder(const HistoryLocation& location, const HistoryChoice& choice, InterruptWatch& interrupts);

  // The recorder the command asked for: --history wins over WCP_HISTORY; none when neither is set.
  static std::unique_ptr<Recorder> open_if_asked(const HistoryChoice& choice, const EnvironmentLookup& environment,
                                                 InterruptWatch& interrupts);

  // Returns the stored result's id.
  std::int64_t record(const Report& report, const Recording& recording);
  // Records, or keeps the store's failure (a database that went away mid-run) for
  // raise_if_failed(), so the command still writes and prints its measurement first. After a
  // failure, later results are not tried.
  void record_kept(const Report& report, const Recording& recording);
  // Throws the first failure kept (HistoryError, exit 4); nothing when every result landed.
  void raise_if_failed() const;
  // Every result recorded so far (history/history_store.h), oldest first.
  std::vector<Result> results() const;
  // This runner as results are recorded with it: host, class, GPU.
  const Machine& machine();
  // One pass of this command the last time it ran here (history/pass_estimate.h).
  std::optional<double> earlier_pass_ms(const std::vector<std::string>& argv, const std::filesystem::path& cwd) const;

 private:
  std::unique_ptr<HistoryStore> store_;
  HistoryChoice choice_;
  InterruptWatch& interrupts_;
  std::optional<Machine> machine_;  // asked once, when the first result is recorded
  std::optional<std::string> failure_;
};

// A time as ISO 8601 UTC ("2026-12-01T09:30:00Z"), and now.
std::string utc_text(std::chrono::system_clock::time_point time);
std::string utc_now();

}  // namespace wcp::history
