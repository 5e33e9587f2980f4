#include "verdict/unchanged_compile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <optional>
#include <set>

#include "facts/queries.h"
#include "io/name_table.h"

namespace wcp::verdict {
namespace {

using BuildCounts = std::map<ModuleIdentity, std::size_t>;

BuildCounts build_counts(const Report& report) {
  BuildCounts counts;
  for (const ModuleEvent* event : cold_compiled_events(report)) ++counts[identity_of(*event)];
  return counts;
}

std::string identity_text(const ModuleIdentity& identity) {
  std::string text = fmt::format("{} {}@{}", identity.name, identity.hash, identity.device);
  if (identity.block_dim) text += fmt::format(" block_dim {}", *identity.block_dim);
  return text;
}

// What a side cannot tell; nullopt when it has everything the decision reads.
std::optional<std::string> missing_from(const Report& report, std::string_view side) {
  if (!report.measured()) return fmt::format("the {} measured nothing", side);
  if (!report.loads_observed)
    return fmt::format("the {}'s loads were not observed ({})", side, report.loads_unobserved);
  if (report.origin == ReportOrigin::original_probe) {
    return fmt::format("the {} is the original probe's report, which records no build environment", side);
  }
  if (!report.build_environment) {
    return fmt::format("the {} report predates the build environment (schema {}, before 15)", side,
                       report.schema_version);
  }
  return std::nullopt;
}

// Every sample built the same identity set as the first (schema 5's per-sample record); a
// sample without the record says nothing either way.
std::optional<std::string> samples_disagree(const Report& report, std::string_view side,
                                            const std::optional<std::vector<std::string>>& reference) {
  for (const auto& sample : report.sample_results) {
    if (!sample.cold_ok || !sample.cold_identities || !reference) continue;
    if (*sample.cold_identities != *reference) {
      return fmt::format("the {}'s sample {} loaded other identities than the baseline's first sample", side,
                         sample.index + 1);
    }
  }
  return std::nullopt;
}

std::optional<std::vector<std::string>> first_identities(const Report& report) {
  for (const auto& sample : report.sample_results) {
    if (sample.cold_ok && sample.cold_identities) return sample.cold_identities;
  }
  return std::nullopt;
}

std::vector<std::string> environment_differences(const BuildEnvironment& a, const BuildEnvironment& b, bool cpu_built,
                                                 bool cuda_built) {
  std::vector<std::string> differences;
  const auto differ = [&differences](std::string_view what, const std::string& x, const std::string& y) {
    // Unknown on both sides is no proof of sameness: missing is not equal.
    if (x.empty() && y.empty()) {
      differences.push_back(fmt::format("{} is unknown on both sides", what));
    } else if (x != y) {
      differences.push_back(
          fmt::format("{} differs ({} vs {})", what, x.empty() ? "unknown" : x, y.empty() ? "unknown" : y));
    }
  };
  differ("Warp version", a.warp_version, b.warp_version);
  if (cpu_built) {
    differ("Warp's CPU compiler", a.cpu_compiler, b.cpu_compiler);
    differ("the CPU model", a.cpu_model, b.cpu_model);
    differ("the CPU's feature flags (crc64)", a.cpu_features, b.cpu_features);
  }
  if (cuda_built) differ("the CUDA toolkit", a.cuda_toolkit, b.cuda_toolkit);
  return differences;
}

// The module directories' bytes; sets `checked` to how many were compared.
std::vector<std::string> byte_differences(const Report& baseline, const Report& candidate, std::size_t& checked,
                                          std::optional<std::string>& not_recorded) {
  std::map<std::string, const ModuleSource*> candidate_modules;
  for (const auto& module : candidate.cache.modules) candidate_modules[module.directory] = &module;
  std::vector<std::string> differences;
  std::set<std::string> seen;
  for (const auto& module : baseline.cache.modules) {
    seen.insert(module.directory);
    const auto found = candidate_modules.find(module.directory);
    if (found == candidate_modules.end()) {
      differences.push_back(fmt::format("{}: written by the baseline only", module.directory));
      continue;
    }
    const ModuleSource& other = *found->second;
    if (!module.source_digest || !other.source_digest) {
      not_recorded = fmt::format("module {} has no byte digest on one side", module.directory);
      continue;
    }
    ++checked;
    if (module.source_digest != other.source_digest) {
      // Warp generated other text under one module hash. When it compiled to the same object
      // code, the text differs in order or naming only (warp.fem's dispatch kernels do this
      // between processes): still Warp's to fix, and still no proof of the same work.
      const bool same_output = module.output_digest && module.output_digest == other.output_digest;
      differences.push_back(
          same_output ? fmt::format("{}: Warp generated other source under the same hash ({} → {} bytes), which "
                                    "compiled to identical object code: its code generation is not deterministic "
                                    "(an order that depends on the process, say)",
                                    module.directory, module.source_bytes, other.source_bytes)
                      : fmt::format("{}: generated source differs ({} → {} bytes)", module.directory,
                                    module.source_bytes, other.source_bytes));
    }
    if (module.output_digest != other.output_digest) {
      differences.push_back(fmt::format("{}: native output differs ({} → {} bytes)", module.directory,
                                        module.output_bytes ? std::to_string(*module.output_bytes) : "no",
                                        other.output_bytes ? std::to_string(*other.output_bytes) : "no"));
    }
  }
  for (const auto& [directory, module] : candidate_modules) {
    if (!seen.contains(directory)) differences.push_back(fmt::format("{}: written by the candidate only", directory));
  }
  return differences;
}

// The directories one side wrote and the other did not: the changed modules' bytes.
std::optional<CompileSameness::ChangedBytes> changed_bytes(const Report& baseline, const Report& candidate) {
  if (baseline.cache.modules.empty() && candidate.cache.modules.empty()) return std::nullopt;
  std::set<std::string> before, after;
  for (const auto& module : baseline.cache.modules) before.insert(module.directory);
  for (const auto& module : candidate.cache.modules) after.insert(module.directory);
  CompileSameness::ChangedBytes bytes;
  const auto add = [](const Report& report, const std::set<std::string>& other, std::uint64_t& source,
                      std::optional<std::uint64_t>& output, std::size_t& modules) {
    output = 0;
    for (const auto& module : report.cache.modules) {
      if (other.contains(module.directory)) continue;
      ++modules;
      source += module.source_bytes;
      if (output && module.output_bytes) {
        *output += *module.output_bytes;
      } else if (!module.output_digest) {
        output.reset();  // an older report, or a build that wrote no output: unknown, not 0
      }
    }
  };
  add(baseline, after, bytes.baseline_source, bytes.baseline_output, bytes.baseline_modules);
  add(candidate, before, bytes.candidate_source, bytes.candidate_output, bytes.candidate_modules);
  return bytes;
}

}  // namespace

namespace {

constexpr NameTable<Sameness, 5> kSameness{{
    {Sameness::same, "same"},
    {Sameness::identities_differ, "identities_differ"},
    {Sameness::environment_differs, "environment_differs"},
    {Sameness::bytes_differ, "bytes_differ"},
    {Sameness::not_recorded, "not_recorded"},
}};

}  // namespace

std::set<std::string> directories_with_other_bytes(const Report& baseline, const Report& candidate) {
  std::map<std::string, const ModuleSource*> after;
  for (const auto& module : candidate.cache.modules) after[module.directory] = &module;
  std::set<std::string> differing;
  for (const auto& module : baseline.cache.modules) {
    const auto found = after.find(module.directory);
    if (found == after.end()) continue;
    if (module.source_digest != found->second->source_digest || module.output_digest != found->second->output_digest)
      differing.insert(module.directory);
  }
  return differing;
}

std::string_view to_string(Sameness sameness) {
  return name_of(kSameness, sameness);
}

CompileSameness compare_compiled_code(const Report& baseline, const Report& candidate) {
  CompileSameness result;
  for (const auto& [report, side] : {std::pair{&baseline, "baseline"}, std::pair{&candidate, "candidate"}}) {
    if (auto missing = missing_from(*report, side)) {
      result.detail = *missing;
      return result;
    }
  }
  const BuildCounts before = build_counts(baseline);
  const BuildCounts after = build_counts(candidate);
  result.identities = before.size();
  for (const auto& [identity, builds] : before) result.builds += builds;
  if (before != after) {
    result.sameness = Sameness::identities_differ;
    for (const auto& [identity, builds] : before) {
      const auto found = after.find(identity);
      if (found == after.end()) {
        result.differences.push_back(identity_text(identity) + ": built by the baseline only");
      } else if (found->second != builds) {
        result.differences.push_back(
            fmt::format("{}: built {} time(s), then {}", identity_text(identity), builds, found->second));
      }
    }
    for (const auto& [identity, builds] : after) {
      if (!before.contains(identity))
        result.differences.push_back(identity_text(identity) + ": built by the candidate only");
    }
    result.detail = fmt::format("{} of the compiled identities differ", result.differences.size());
    result.changed_bytes = changed_bytes(baseline, candidate);
    return result;
  }
  const auto reference = first_identities(baseline);
  for (const auto& [report, side] : {std::pair{&baseline, "baseline"}, std::pair{&candidate, "candidate"}}) {
    if (auto disagree = samples_disagree(*report, side, reference)) {
      result.sameness = Sameness::identities_differ;
      result.detail = *disagree;
      return result;
    }
  }
  bool cpu_built = false, cuda_built = false;
  for (const auto& [identity, builds] : before) {
    cpu_built = cpu_built || identity.device == "cpu";
    cuda_built = cuda_built || identity.device.starts_with("cuda");
  }
  result.differences =
      environment_differences(*baseline.build_environment, *candidate.build_environment, cpu_built, cuda_built);
  // Precompiled headers change the work of a build, not its module hash nor its output.
  const auto pch = [](const Report& report) {
    const auto& setting = report.instrumentation.use_precompiled_headers;
    return setting ? (*setting ? std::string("on") : std::string("off")) : std::string("unknown");
  };
  if (pch(baseline) != pch(candidate)) {
    result.differences.push_back(fmt::format("precompiled headers differ ({} vs {})", pch(baseline), pch(candidate)));
  }
  if (!result.differences.empty()) {
    result.sameness = Sameness::environment_differs;
    result.detail = fmt::format("the same {} identities, built under another toolchain or CPU: {}", result.identities,
                                fmt::join(result.differences, "; "));
    return result;
  }
  std::optional<std::string> not_recorded;
  result.differences = byte_differences(baseline, candidate, result.modules_checked, not_recorded);
  if (!result.differences.empty()) {
    result.sameness = Sameness::bytes_differ;
    result.detail = fmt::format(
        "the same {} identities under the same toolchain wrote other bytes ({}): identical hashes over different "
        "bytes are a defect (Warp's, unless this tool misread them) for Warp's maintainers, not a pass; judged on time",
        result.identities, fmt::join(result.differences, "; "));
    return result;
  }
  if (not_recorded || (result.identities > 0 && result.modules_checked == 0)) {
    result.detail = not_recorded ? *not_recorded
                                 : std::string(
                                       "no module directory in the kernel cache holds the bytes to confirm "
                                       "the identities (is the kernel cache switched off?)");
    return result;
  }
  result.sameness = Sameness::same;
  result.detail =
      result.identities == 0
          ? std::string("neither side compiled a module")
          : fmt::format(
                "the same {} identit{} as the baseline ({} build{}), with the same Warp {}, compilers and CPU, "
                "and the same generated source and native output bytes in {} module director{}",
                result.identities, result.identities == 1 ? "y" : "ies", result.builds, result.builds == 1 ? "" : "s",
                baseline.build_environment->warp_version, result.modules_checked,
                result.modules_checked == 1 ? "y" : "ies");
  return result;
}

}  // namespace wcp::verdict
