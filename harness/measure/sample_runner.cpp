#include "measure/sample_runner.h"

#include "instrument/injection.h"
#include "io/environment.h"
#include "measure/cache_inventory.h"
#include "measure/cuda_build_run.h"
#include "measure/distributions.h"
#include "run/interrupt_watch.h"
#include "run/scratch_dir.h"

namespace wcp::measure {
namespace {

// The run's own private paths, named: Warp prints its kernel cache, and every run has its own.
OutputMasks masks_of(const MeasureOptions& options, const ScratchDir& scratch, const std::filesystem::path& cache_dir) {
  OutputMasks masks;
  masks.add_literal(cache_dir.string(), "<private kernel cache>");
  masks.add_literal((scratch.path() / "cuda-cache").string(), "<private CUDA cache>");
  masks.add_literal(scratch.path().string(), "<private scratch>");
  for (const auto& pattern : options.ignore_output) masks.add_ignored(pattern, "--ignore-output");
  return masks;
}

PassRecord run_pass(const MeasureOptions& options, const ScratchDir& scratch, const std::filesystem::path& cache_dir,
                    const std::filesystem::path* instrumentation_dir, Pass pass, InterruptWatch& interrupts,
                    DistributionIndex& distributions) {
  std::map<std::string, std::string> variables = options.extra_environment;
  // The documented variables (docs/measurement.md#isolation): private Warp and CUDA caches,
  // the event file, and no bytecode writes so the measured tree is never written to. (A private
  // PYTHONPYCACHEPREFIX would do the same but makes every cold run recompile the bytecode of
  // Warp and NumPy as well: measured at +3.3 s per cold+warm pair of a small app.)
  variables["WARP_CACHE_PATH"] = cache_dir.string();
  variables["WARP_CACHE_ROOT"] = cache_dir.string();
  variables["CUDA_CACHE_PATH"] = (scratch.path() / "cuda-cache").string();
  variables.insert_or_assign("PYTHONDONTWRITEBYTECODE", std::string("1"));
  // The CUDA builds belong to the cold run's figures only: a warm run would build them again.
  if (!options.cuda_archs.empty() && pass == Pass::cold && instrumentation_dir != nullptr)
    variables[kCudaArchsVariable] = cuda_archs_variable_value(options.cuda_archs);
  std::filesystem::path event_dir;
  std::vector<std::string> argv = options.command;
  std::map<std::string, std::string> environment = current_environment();
  if (instrumentation_dir != nullptr) {
    event_dir = scratch.make_subdir("events-" + std::string(to_string(pass)));
    variables[instrument::kEventDirVariable] = event_dir.string();
    auto spec = instrument::inject(options.command, environment, variables, instrumentation_dir->string());
    argv = std::move(spec.argv);
    environment = std::move(spec.environment);
  } else {
    for (const auto& [name, value] : variables) environment[name] = value;
  }

  PassRecord record;
  parse::LogScanner out_scanner, err_scanner;
  if (options.check_output) {
    const OutputMasks masks = masks_of(options, scratch, cache_dir);
    record.output.emplace(CapturedOutput{OutputDigest(masks), OutputDigest(masks)});
  }
  RunRequest request{argv, environment, options.cwd, options.timeout, std::chrono::milliseconds(2000)};
  record.run = run_process(
      request,
      [&](OutputStream stream, std::string_view chunk) {
        (stream == OutputStream::out ? out_scanner : err_scanner).feed(chunk);
        if (record.output) (stream == OutputStream::out ? record.output->out : record.output->err).feed(chunk);
      },
      interrupts);
  out_scanner.finish();
  err_scanner.finish();
  if (record.output) {
    record.output->out.finish();
    record.output->err.finish();
  }
  record.log = parse::merge(out_scanner.facts(), err_scanner.facts());
  if (instrumentation_dir != nullptr) {
    record.instrumentation = instrument::read_instrumentation_events(event_dir);
    read_cuda_build_traces(record.instrumentation);  // before the event folder goes
    name_distributions(record.instrumentation, distributions);
  }
  return record;
}

}  // namespace

PassRecord run_instrumented_pass(const MeasureOptions& options, const ScratchDir& scratch,
                                 const std::filesystem::path& cache_dir,
                                 const std::filesystem::path& instrumentation_dir, InterruptWatch& interrupts) {
  DistributionIndex distributions;
  return run_pass(options, scratch, cache_dir, &instrumentation_dir, Pass::cold, interrupts, distributions);
}

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
  sample.cold = run_pass(options, scratch, cache_dir, &instrumentation_dir, Pass::cold, interrupts, distributions);
  progress.pass_finished(index, options.samples, Pass::cold, sample.cold.run.wall_ms, sample.cold.run.succeeded());
  interrupts.throw_if_interrupted();
  sample.inventory = inventory_cache(cache_dir);
  if (options.cold_only) return sample;
  if (!sample.cold.run.succeeded()) {
    progress.plan(-1);  // no warm run after a failed cold one
    return sample;
  }

  progress.pass_started(index, options.samples, Pass::warm);
  sample.warm = run_pass(options, scratch, cache_dir, &instrumentation_dir, Pass::warm, interrupts, distributions);
  progress.pass_finished(index, options.samples, Pass::warm, sample.warm->run.wall_ms, sample.warm->run.succeeded());
  return sample;
}

PassRecord run_pass_against(const MeasureOptions& options, const std::filesystem::path& cache_dir,
                            InterruptWatch& interrupts) {
  ScratchDir scratch;
  scratch.make_subdir("cuda-cache");
  const auto instrumentation_dir = scratch.make_subdir("instrumentation");
  instrument::write_instrumentation(instrumentation_dir);
  DistributionIndex distributions;
  return run_pass(options, scratch, cache_dir, &instrumentation_dir, Pass::warm, interrupts, distributions);
}

SampleRecord run_without_probe(const MeasureOptions& options, InterruptWatch& interrupts, ProgressListener& progress) {
  ScratchDir scratch;
  const auto cache_dir = scratch.make_subdir("warp-cache");
  scratch.make_subdir("cuda-cache");
  DistributionIndex distributions;
  SampleRecord sample;
  sample.private_cache_dir = cache_dir.string();
  progress.pass_started(1, 1, Pass::cold);
  sample.cold = run_pass(options, scratch, cache_dir, nullptr, Pass::cold, interrupts, distributions);
  progress.pass_finished(1, 1, Pass::cold, sample.cold.run.wall_ms, sample.cold.run.succeeded());
  interrupts.throw_if_interrupted();
  if (options.cold_only || !sample.cold.run.succeeded()) return sample;  // as run_sample does
  progress.pass_started(1, 1, Pass::warm);
  sample.warm = run_pass(options, scratch, cache_dir, nullptr, Pass::warm, interrupts, distributions);
  progress.pass_finished(1, 1, Pass::warm, sample.warm->run.wall_ms, sample.warm->run.succeeded());
  return sample;
}

}  // namespace wcp::measure
