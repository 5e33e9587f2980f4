#include "cli/prior_noise.h"

#include "calibrate/calibration_noise.h"
#include "facts/reference_units.h"
#include "history/history_noise.h"
#include "history/machine.h"
#include "history/recorder.h"

namespace wcp::cli {

PriorNoise::PriorNoise(const std::string& history_option, const EnvironmentLookup& environment,
                       InterruptWatch& interrupts, std::optional<calibrate::Calibration> calibration,
                       std::filesystem::path calibration_source)
    : history_(history::history_file(history_option, environment)),
      interrupts_(interrupts),
      calibration_(std::move(calibration)),
      calibration_source_(std::move(calibration_source)) {
  if (!calibration_) {
    // Only a fallback: a default file that cannot be read leaves the noise to the other sources.
    try {
      calibration_source_ = calibrate::default_calibration_path();
      calibration_ = calibrate::load_calibration(calibration_source_);
    } catch (const std::exception&) {
      calibration_.reset();
    }
  }
}

namespace {

std::string command_key(const Report& report) {
  std::string key;
  for (const auto& word : report.command) key += word + '\0';
  return key + report.cwd;
}

}  // namespace

std::optional<Noise> PriorNoise::cpu_for_report(const Report& report) {
  const std::string key = command_key(report);
  if (cpu_asked_for_ == key) return cpu_answer_;
  cpu_asked_for_ = key;
  cpu_answer_.reset();
  if (history_) {
    auto query = history::noise_query_for(report, history::current_machine(interrupts_));
    query.cpu_clock = true;
    cpu_answer_ = history::noise_from_history_file(*history_, query);
  }
  return cpu_answer_;
}

std::optional<Noise> PriorNoise::for_report(const Report& report) {
  const std::string key = command_key(report);
  if (asked_for_ == key) return answer_;
  asked_for_ = key;
  answer_.reset();
  if (history_) {
    answer_ = history::noise_from_history_file(*history_,
                                               history::noise_query_for(report, history::current_machine(interrupts_)));
  }
  if (!answer_ && calibration_) {
    const ReferenceKind kind = report.reference ? report.reference->kind : reference_kind_for(report);
    answer_ = calibrate::calibration_noise(*calibration_, kind, calibration_source_);
  }
  return answer_;
}

}  // namespace wcp::cli
