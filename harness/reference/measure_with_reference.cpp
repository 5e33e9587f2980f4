#include "reference/measure_with_reference.h"

#include <memory>

#include "errors.h"
#include "facts/reference_units.h"
#include "io/environment.h"
#include "io/executable.h"
#include "measure/measure.h"
#include "measure/report_builder.h"
#include "reference/warp_cpu_reference.h"
#include "run/interrupt_watch.h"

namespace wcp::reference {
namespace {

// Shows reference runs on the progress line as "reference sample k/N".
class ReferenceProgress final : public measure::ProgressListener {
 public:
  ReferenceProgress(measure::ProgressListener& inner, int samples) : inner_(inner), samples_(samples) {}
  void start(int sample) {
    inner_.arm("reference");
    sample_ = sample;
  }
  void stop() { inner_.arm(""); }
  void pass_started(int, int, Pass pass) override { inner_.pass_started(sample_, samples_, pass); }
  void pass_finished(int, int, Pass pass, double wall_ms, bool ok) override {
    inner_.pass_finished(sample_, samples_, pass, wall_ms, ok);
  }
  void plan(int passes) override { inner_.plan(passes); }
  void done() override {}

 private:
  measure::ProgressListener& inner_;
  int samples_;
  int sample_ = 0;
};

std::unique_ptr<ReferenceRunner> open_runner(ReferenceKind kind, const ReferenceSetup& setup,
                                             InterruptWatch& interrupts) {
  if (kind == ReferenceKind::warp_cpu) return std::make_unique<WarpCpuReference>(setup.python);
  // NVRTC, its fixtures and Warp's headers are found the way `calibrate` finds them by default.
  NvrtcReferenceInputs inputs;
  inputs.python = setup.python;
  return NvrtcReference::open(inputs, interrupts);
}

}  // namespace

void validate(const ReferenceSetup& setup) {
  resolve_executable(setup.python, current_environment(), std::filesystem::current_path());
}

measure::Measurement measure_with_reference(const measure::MeasureOptions& options, const ReferenceSetup& setup,
                                            InterruptWatch& interrupts, measure::ProgressListener& progress,
                                            const measure::StopSampling& stop) {
  validate(setup);
  MachineReference reference;
  std::optional<ReferenceKind> kind = setup.kind;
  std::unique_ptr<ReferenceRunner> runner;
  ReferenceProgress reference_progress(progress, options.samples);
  const auto after_sample = [&](const measure::SampleRecord& sample) {
    if (!sample.cold.run.succeeded() || !reference.unavailable.empty()) return;
    if (!runner) {
      if (!kind) kind = reference_kind_for(measure::build_report(options, {sample}));
      reference.kind = *kind;
      try {
        runner = open_runner(*kind, setup, interrupts);
      } catch (const UsageError& error) {
        reference.unavailable = error.what();
        return;
      } catch (const RunError& error) {
        reference.unavailable = error.what();
        return;
      }
      reference.name = runner->name();
      reference.description = runner->description();
    }
    reference_progress.start(sample.index);
    reference.samples.push_back(runner->take(sample.index, interrupts, reference_progress));
    reference_progress.stop();
  };
  const auto stop_with_reference = [&](const Report& so_far) {
    Report seen = so_far;
    MachineReference taken = reference;
    finish_reference(taken, seen.sample_results);
    seen.reference = std::move(taken);
    return stop(seen);
  };
  measure::Measurement measurement =
      measure::measure_with_trace(options, interrupts, progress, after_sample,
                                  stop ? measure::StopSampling(stop_with_reference) : measure::StopSampling());
  Report& report = measurement.report;
  if (!runner && reference.unavailable.empty()) {
    reference.unavailable = "no command sample succeeded, so no reference was taken";
  }
  finish_reference(reference, report.sample_results);
  report.reference = std::move(reference);
  return measurement;
}

}  // namespace wcp::reference
