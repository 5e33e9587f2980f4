#include "measure/sample_runner.h"

#include "instrument/injection.h"
#include "io/environment.h"
#include "measure/cache_inventory.h"
#include "measure/distributions.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

namespace wcp::measure {
namespace {

PassRecord run_pass(const MeasureOptions& options, const ScratchDir& scratch, const std::filesystem::path& cache_dir,
                    const std::filesystem::path& instrumentation_dir, Pass pass, InterruptWatch& interrupts,
                    DistributionIndex& distributions) {
  const auto event_dir = scratch.make_subdir("events-" + std::string(to_string(pass)));
  std::map<std::string, std::string> variables = options.extra_environment;
  // The documented variables (docs/measurement.md#isolation): private Warp and CUDA caches,
  // the event file, and no bytecode writes so the measured tree is never written to. (A private
  // PYTHONPYCACHEPREFIX would do the same but makes every cold run recompile the bytecode of
  // Warp and NumPy as well: measured at +3.3 s per cold+warm pair of a small app.)
  variables["WARP_CACHE_PATH"] = cache_dir.string();
  variables["WARP_CACHE_ROOT"] = cache_dir.string();
  variables["CUDA_CACHE_PATH"] = (scratch.path() / "cuda-cache").string();
  variables.insert_or_assign("PYTHONDONTWRITEBYTECODE", std::string("1"));
  variables[instrument::kEventDirVariable] = event_dir.string();
  const auto spec = instrument::inject(options.command, current_environment(), variables, instrumentation_dir.string());

  PassRecord record;
  parse::LogScanner scanner;
  RunRequest request{spec.argv, spec.environment, options.cwd, options.timeout, std::chrono::milliseconds(2000)};
  record.run = run_process(request, [&scanner](std::string_view chunk) { scanner.feed(chunk); }, interrupts);
  scanner.finish();
  record.log = scanner.facts();
  record.instrumentation = instrument::read_instrumentation_events(event_dir);
  name_distributions(record.instrumentation, distributions);
  return record;
}

}  // namespace

SampleRecord run_sample(const MeasureOptions& options, int index, InterruptWatch& interrupts,
                        ProgressListener& progress) {
  ScratchDir scratch;
  const auto cache_dir = scratch.make_subdir("warp-cache");
  scratch.make_subdir("cuda-cache");
  const auto instrumentation_dir = scratch.make_subdir("instrumentation");
  instrument::write_instrumentation(instrumentation_dir);

  DistributionIndex distributions;
  SampleRecord sample;
  sample.index = index;
  sample.private_cache_dir = cache_dir.string();
  progress.pass_started(index, options.samples, Pass::cold);
  sample.cold = run_pass(options, scratch, cache_dir, instrumentation_dir, Pass::cold, interrupts, distributions);
  progress.pass_finished(index, options.samples, Pass::cold, sample.cold.run.wall_ms, sample.cold.run.succeeded());
  interrupts.throw_if_interrupted();
  sample.inventory = inventory_cache(cache_dir);
  if (!sample.cold.run.succeeded() || options.cold_only) return sample;

  progress.pass_started(index, options.samples, Pass::warm);
  sample.warm = run_pass(options, scratch, cache_dir, instrumentation_dir, Pass::warm, interrupts, distributions);
  progress.pass_finished(index, options.samples, Pass::warm, sample.warm->run.wall_ms, sample.warm->run.succeeded());
  return sample;
}

}  // namespace wcp::measure
