#include "measure/ab.h"

#include <string>

#include "errors.h"
#include "measure/arm_progress.h"
#include "measure/measure.h"
#include "measure/report_builder.h"
#include "measure/sample_runner.h"
#include "run/interrupt_watch.h"

namespace wcp::measure {

AbReports measure_ab(const MeasureOptions& baseline, const MeasureOptions& candidate, int samples,
                     InterruptWatch& interrupts, ProgressListener& progress, const StopPairs& stop) {
  if (samples < 1) throw UsageError("--samples must be at least 1");
  validate(baseline);
  validate(candidate);
  std::vector<SampleRecord> a, b;
  BuildEnvironmentReader environments[2];  // per arm: the arms may run different Pythons
  ArmProgress arm_progress(progress, 2 * samples);
  int taken = 0;
  const auto take = [&](const char* arm, const MeasureOptions& options, int index, std::vector<SampleRecord>& into) {
    arm_progress.start(arm, ++taken);
    into.push_back(run_sample(options, index, interrupts, arm_progress));
    interrupts.throw_if_interrupted();
  };
  for (int pair = 0; pair < samples; ++pair) {
    const int index = pair + 1;
    if (baseline_first(pair)) {
      take("A", baseline, index, a);
      take("B", candidate, index, b);
    } else {
      take("B", candidate, index, b);
      take("A", baseline, index, a);
    }
    if (stop && index < samples &&
        stop({build_report(baseline, a, &environments[0]), build_report(candidate, b, &environments[1])}))
      break;
  }
  arm_progress.done();
  return {build_report(baseline, a, &environments[0]), build_report(candidate, b, &environments[1])};
}

}  // namespace wcp::measure
