#include "history/recorder.h"

#include <fmt/chrono.h>

#include <chrono>

#include "calibrate/machine_info.h"
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

std::optional<std::filesystem::path> history_file(const std::string& option, const EnvironmentLookup& environment) {
  std::string path = option;
  if (path.empty()) path = environment("WCP_HISTORY").value_or("");
  if (path.empty()) return std::nullopt;
  return std::filesystem::path(path);
}

Recorder::Recorder(const std::filesystem::path& path, InterruptWatch& interrupts)
    : store_(path, HistoryStore::Mode::append), interrupts_(interrupts) {}

std::unique_ptr<Recorder> Recorder::open_if_asked(const std::string& option, const EnvironmentLookup& environment,
                                                  InterruptWatch& interrupts) {
  const auto path = history_file(option, environment);
  if (!path) return nullptr;
  return std::make_unique<Recorder>(std::filesystem::absolute(*path), interrupts);
}

std::int64_t Recorder::record(const Report& report, const Recording& recording) {
  if (!machine_) machine_ = current_machine(interrupts_);
  ResultContext context;
  context.source = recording.source;
  context.machine = *machine_;
  context.commit = commit_of(recording.directory, interrupts_);
  context.recorded_at = utc_now();
  context.name = recording.name;
  context.verdict = recording.verdict;
  return store_.append(result_from_report(report, context));
}

std::optional<double> Recorder::earlier_pass_ms(const std::vector<std::string>& argv,
                                                const std::filesystem::path& cwd) const {
  if (store_.schema_version() == 0) return std::nullopt;  // nothing recorded yet
  return history::earlier_pass_ms(store_.results(), argv, cwd.string(), calibrate::current_hostname());
}

}  // namespace wcp::history
