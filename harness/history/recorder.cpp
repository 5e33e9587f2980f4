#include "history/recorder.h"

#include <fmt/chrono.h>

#include <chrono>

#include "calibrate/machine_info.h"
#include "errors.h"
#include "history/branch.h"
#include "history/git_commit.h"
#include "history/machine.h"
#include "history/pass_estimate.h"
#include "history/result_from_report.h"

namespace wcp::history {

std::string utc_text(std::chrono::system_clock::time_point time) {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", std::chrono::floor<std::chrono::seconds>(time));
}

std::string utc_now() {
  return utc_text(std::chrono::system_clock::now());
}

Recorder::Recorder(const HistoryLocation& location, const HistoryChoice& choice, InterruptWatch& interrupts)
    : store_(open_history(location, HistoryStore::Mode::append)), choice_(choice), interrupts_(interrupts) {}

std::unique_ptr<Recorder> Recorder::open_if_asked(const HistoryChoice& choice, const EnvironmentLookup& environment,
                                                  InterruptWatch& interrupts) {
  auto location = history_location(choice.location, environment);
  if (!location) return nullptr;
  if (location->backend == HistoryLocation::Backend::sqlite) location->file = std::filesystem::absolute(location->file);
  return std::make_unique<Recorder>(*location, choice, interrupts);
}

std::vector<Result> Recorder::results() const {
  if (store_->schema_version() == 0) return {};  // nothing recorded yet
  return store_->results();
}

const Machine& Recorder::machine() {
  if (!machine_) machine_ = current_machine(interrupts_, choice_.machine_class);
  return *machine_;
}

std::int64_t Recorder::record(const Report& report, const Recording& recording) {
  machine();
  ResultContext context;
  context.source = recording.source;
  context.machine = *machine_;
  context.commit = commit_of(recording.directory, interrupts_);
  context.recorded_at = utc_now();
  context.name = recording.name;
  context.verdict = recording.verdict;
  context.branch = branch_of(choice_.branch, process_environment(), recording.directory, interrupts_);
  return store_->append(result_from_report(report, context));
}

void Recorder::record_kept(const Report& report, const Recording& recording) {
  if (failure_) return;
  try {
    record(report, recording);
  } catch (const HistoryError& error) {
    failure_ = error.what();
  }
}

void Recorder::raise_if_failed() const {
  if (failure_) {
    throw HistoryError(*failure_ + "; the measurement is kept in the command's own output (--json, the report)");
  }
}

std::optional<double> Recorder::earlier_pass_ms(const std::vector<std::string>& argv,
                                                const std::filesystem::path& cwd) const {
  return history::earlier_pass_ms(results(), argv, cwd.string(), calibrate::current_hostname());
}

}  // namespace wcp::history
