#include "history/prior_noise.h"

#include "calibrate/calibration_noise.h"
#include "facts/reference_units.h"
#include "history/history_noise.h"
#include "history/machine.h"
#include "history/recorder.h"

namespace wcp::history {

PriorNoise::PriorNoise(const HistoryChoice& history, const EnvironmentLookup& environment, InterruptWatch& interrupts,
                       std::optional<calibrate::Calibration> calibration, std::filesystem::path calibration_source)
    : history_(history_location(history.location, environment)),
      machine_class_(history.machine_class),
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

std::optional<Noise> PriorNoise::noise_of(Remembered& remembered, const Report& report, bool cpu_clock) {
  const std::string key = command_key(report);
  if (remembered.command == key) return remembered.answer;
  remembered.command = key;
  remembered.answer.reset();
  if (history_) {
    auto query = noise_query_for(report, current_machine(interrupts_, machine_class_));
    query.cpu_clock = cpu_clock;
    remembered.answer = noise_from_history_at(*history_, query);
  }
  // The calibration's references are timed on the wall: they speak for the wall clock only.
  if (!remembered.answer && !cpu_clock && calibration_) {
    const ReferenceKind kind = report.reference ? report.reference->kind : reference_kind_for(report);
    remembered.answer = calibrate::calibration_noise(*calibration_, kind, calibration_source_);
  }
  return remembered.answer;
}

std::optional<Noise> PriorNoise::for_report(const Report& report) {
  return noise_of(wall_, report, false);
}

std::optional<Noise> PriorNoise::cpu_for_report(const Report& report) {
  return noise_of(cpu_, report, true);
}

}  // namespace wcp::history
