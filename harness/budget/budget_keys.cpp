#include "budget/budget_keys.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <array>
#include <stdexcept>
#include <type_traits>

#include "io/command_line.h"
#include "measure/cuda_build_run.h"

namespace wcp::budget {
namespace {

template <typename T>
struct IsMap : std::false_type {};
template <typename K, typename V>
struct IsMap<std::map<K, V>> : std::true_type {};

// `into.*Field = reader.Read(value, Name)`: most keys are one typed read.
template <auto Field, auto Read, const std::string_view& Name>
void read_into(const YamlReader& reader, const YAML::Node& value, Settings& into) {
  into.*Field = (reader.*Read)(value, std::string(Name));
}

template <auto Field>
void merge_field(Settings& merged, const Settings& overrides) {
  auto& target = merged.*Field;
  const auto& source = overrides.*Field;
  if constexpr (IsMap<std::remove_cvref_t<decltype(target)>>::value) {
    for (const auto& [name, value] : source) target[name] = value;
  } else if (source) {
    target = source;
  }
}

void read_command(const YamlReader& reader, const YAML::Node& node, Settings& into) {
  std::vector<std::string> argv;
  if (node.IsScalar()) {
    try {
      argv = split_command_line(node.Scalar());
    } catch (const std::invalid_argument& error) {
      reader.fail(node, std::string("'command': ") + error.what());
    }
  } else if (node.IsSequence()) {
    argv = reader.string_list(node, std::string(key::command));
  } else {
    reader.fail(node, "'command' must be a list of arguments or a string");
  }
  if (argv.empty()) reader.fail(node, "'command' is empty");
  into.command = std::move(argv);
}

void read_samples(const YamlReader& reader, const YAML::Node& node, Settings& into) {
  if (node.IsScalar() && node.Scalar() == "auto") {
    into.samples = SampleCount{};
    return;
  }
  if (!node.IsScalar()) reader.fail(node, "'samples' must be auto or a whole number >= 1");
  into.samples = SampleCount{reader.positive_int(node, std::string(key::samples))};
}

void read_device(const YamlReader& reader, const YAML::Node& node, Settings& into) {
  const std::string text = reader.string(node, std::string(key::device));
  if (text == "any")
    into.device = DeviceRequirement::any;
  else if (text == "cpu")
    into.device = DeviceRequirement::cpu;
  else if (text == "cuda")
    into.device = DeviceRequirement::cuda;
  else
    reader.fail(node, "'device' must be cpu, cuda or any, got '" + text + "'");
}

// A report's path, or `{rev: REV}`: a git revision measured beside the working tree.
void read_baseline(const YamlReader& reader, const YAML::Node& node, Settings& into) {
  if (node.IsMap()) {
    for (const auto& item : node) {
      const std::string name = item.first.as<std::string>();
      if (name != "rev") reader.fail(item.first, "'baseline' takes a report path or {rev: REV}, not '" + name + "'");
    }
    if (!node["rev"]) reader.fail(node, "'baseline' as a mapping needs 'rev' (a git revision)");
    into.baseline_rev = reader.string(node["rev"], "baseline.rev");
    if (into.baseline_rev->empty()) reader.fail(node["rev"], "'baseline.rev' is empty");
    return;
  }
  into.baseline = reader.string(node, std::string(key::baseline));
}

// `sm_86`, or a list of them: the architectures the CUDA build is measured for.
void read_cuda_arch(const YamlReader& reader, const YAML::Node& node, Settings& into) {
  std::vector<YAML::Node> items;
  if (node.IsScalar()) {
    items.push_back(node);
  } else if (node.IsSequence()) {
    for (const auto& item : node) items.push_back(item);
    if (items.empty()) reader.fail(node, "'cuda_arch' is empty: name an architecture such as sm_86");
  } else {
    reader.fail(node, "'cuda_arch' must be an architecture such as sm_86, or a list of them");
  }
  std::vector<int> archs;
  for (const auto& item : items) {
    const std::string text = item.IsScalar() ? item.Scalar() : std::string();
    const auto arch = measure::parse_cuda_arch(text);
    if (!item.IsScalar() || !arch)
      reader.fail(item, "'cuda_arch' must be an architecture such as sm_86 (or 86), got " +
                            (item.IsScalar() ? "'" + text + "'" : std::string("a nested value")));
    if (std::find(archs.begin(), archs.end(), *arch) != archs.end())
      reader.fail(item, fmt::format("'cuda_arch' names sm_{} twice", *arch));
    archs.push_back(*arch);
  }
  into.cuda_arch = std::move(archs);
}

// One key, two forms: whichever the override wrote replaces both.
void merge_baseline(Settings& merged, const Settings& overrides) {
  if (!overrides.baseline && !overrides.baseline_rev) return;
  merged.baseline = overrides.baseline;
  merged.baseline_rev = overrides.baseline_rev;
}

#define WCP_KEY(member, reader_method) \
  &read_into<&Settings::member, &YamlReader::reader_method, key::member>, &merge_field<&Settings::member>

const std::array<KeySpec, 31> kKeys{{
    {key::command, "the command to measure: a list of arguments, or one string split like a shell (no shell runs)",
     false, &read_command, &merge_field<&Settings::command>},
    {key::cwd, "working directory of the command, relative to the budget file (default: the file's directory)", true,
     WCP_KEY(cwd, string)},
    {key::env, "extra environment variables for the command (merged key by key with defaults)", true,
     WCP_KEY(env, string_map)},
    {key::samples, "cold+warm samples: auto (default: as few as decide every budget, at most 5) or a fixed number",
     true, &read_samples, &merge_field<&Settings::samples>},
    {key::timeout, "seconds each run may take before it is stopped (default 900, at most a year)", true,
     WCP_KEY(timeout, positive_number)},
    {key::device, "cpu, cuda or any (default): a cuda entry is not run where there is no CUDA device", true,
     &read_device, &merge_field<&Settings::device>},
    {key::max_modules, "most distinct module names compiled in the cold run", true, WCP_KEY(max_modules, count)},
    {key::max_identities, "most distinct (module, hash, device, block_dim) compiled in the cold run", true,
     WCP_KEY(max_identities, count)},
    {key::max_builds_per_module, "most builds of any one module in the cold run (default 1; always checked)", true,
     WCP_KEY(max_builds_per_module, positive_count)},
    {key::allow_rebuilds, "modules exempt from max_builds_per_module, each with the reason it may rebuild", true,
     WCP_KEY(allow_rebuilds, string_map)},
    {key::cold_seconds, "most seconds of median cold module work", true, WCP_KEY(cold_seconds, positive_number)},
    {key::cold_cpu_seconds, "most CPU seconds of median cold module work (what load on the runner barely moves)", true,
     WCP_KEY(cold_cpu_seconds, positive_number)},
    {key::cold_units, "most cold module work in units of this machine's reference cost (docs/budgets.md#cold_units)",
     true, WCP_KEY(cold_units, positive_number)},
    {key::compile_elapsed_seconds, "most seconds of median compile elapsed (cold wall minus warm wall)", true,
     WCP_KEY(compile_elapsed_seconds, positive_number)},
    {key::warm_near_zero, "true: the warm run compiles nothing and its module work stays near zero", true,
     WCP_KEY(warm_near_zero, boolean)},
    {key::baseline,
     "a saved report to judge against, as `compare` does (relative to the budget file), or {rev: REV}: a git "
     "revision measured in the same job, interleaved with the working tree (docs/budgets.md#against-rev)",
     false, &read_baseline, &merge_baseline},
    {key::baseline_tolerance_percent, "widens the baseline's noise band to at least this percent of its median", true,
     WCP_KEY(baseline_tolerance_percent, non_negative_number)},
    {key::baseline_threshold_percent,
     "the smallest regression (percent) the baseline budget must be able to see; a verdict that could not is NOT "
     "JUDGED (default 5)",
     true, WCP_KEY(baseline_threshold_percent, positive_number)},
    {key::gate_on_elapsed, "true: against the baseline, compile elapsed rising beyond its band also fails", true,
     WCP_KEY(gate_on_elapsed, boolean)},
    {key::max_generated_source_bytes, "most bytes of generated .cpp/.cu source in the cold run's cache", true,
     WCP_KEY(max_generated_source_bytes, count)},
    {key::max_lto_artifacts, "most .lto/.ltoir artifacts in the cold run's cache", true,
     WCP_KEY(max_lto_artifacts, count)},
    {key::stable_hashes,
     "true: module identities are the same in a reseeded process and from a copy of the checkout at another path", true,
     WCP_KEY(stable_hashes, boolean)},
    {key::max_cache_bytes,
     "most bytes of kernel cache the command needs: the entries a --warm-cache audit read or wrote, else all the cold "
     "run wrote into its empty private cache (to size a CI cache)",
     true, WCP_KEY(max_cache_bytes, count)},
    {key::max_test_builds, "most cold-run builds any one test of the suite may make (docs/budgets.md#test-budgets)",
     true, WCP_KEY(max_test_builds, count)},
    {key::max_test_cold_seconds, "most seconds of cold module work any one test of the suite may cost", true,
     WCP_KEY(max_test_cold_seconds, positive_number)},
    {key::no_builds_after,
     "a warm-up test (its id, or a pytest id without parameters) or the phase `collection`: no build after it", true,
     WCP_KEY(no_builds_after, string)},
    {key::cuda_arch,
     "sm_86, or a list: build every module the command loaded for these CUDA architectures with Warp's NVRTC at its "
     "exit, without a GPU (docs/budgets.md#cuda-build)",
     true, &read_cuda_arch, &merge_field<&Settings::cuda_arch>},
    {key::max_cuda_compile_seconds,
     "with cuda_arch: most CPU seconds of the CUDA build per arch (median over samples of the modules' sum)", true,
     WCP_KEY(max_cuda_compile_seconds, positive_number)},
    {key::max_module_cuda_compile_seconds, "with cuda_arch: most CPU seconds any one module's CUDA build may take",
     true, WCP_KEY(max_module_cuda_compile_seconds, positive_number)},
    {key::max_kernel_cuda_compile_ms,
     "with cuda_arch: most NVRTC milliseconds any one kernel may cost (forward + backward)", true,
     WCP_KEY(max_kernel_cuda_compile_ms, positive_number)},
    {key::max_cuda_output_bytes, "with cuda_arch: most bytes of CUDA output (cubin or PTX) per arch", true,
     WCP_KEY(max_cuda_output_bytes, count)},
}};

#undef WCP_KEY

}  // namespace

std::span<const KeySpec> budget_keys() {
  return kKeys;
}

const KeySpec* find_key(std::string_view name) {
  for (const auto& spec : kKeys) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::vector<std::string_view> key_names(bool with_name) {
  std::vector<std::string_view> names;
  if (with_name) names.push_back("name");
  for (const auto& spec : kKeys) {
    if (with_name || spec.in_defaults) names.push_back(spec.name);
  }
  return names;
}

std::string known_keys(bool with_name) {
  return fmt::format("{}", fmt::join(key_names(with_name), ", "));
}

}  // namespace wcp::budget
