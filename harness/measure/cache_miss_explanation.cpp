#include "measure/cache_miss_explanation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "measure/cache_listing.h"
#include "measure/quiet_read.h"

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

std::string bool_text(bool value) {
  return value ? "True" : "False";
}

std::vector<OptionChange> option_changes(const GeneratedSource& build, const GeneratedSource& entry,
                                         const std::map<std::string, std::string>& build_options) {
  std::vector<OptionChange> changes;
  if (build.block_dim && entry.block_dim && *build.block_dim != *entry.block_dim) {
    changes.push_back({"block_dim", std::to_string(*entry.block_dim), std::to_string(*build.block_dim)});
  }
  if (build.backward != entry.backward) {
    // Read from the code on both sides: a kernel's own enable_backward can differ from the module's.
    changes.push_back({"enable_backward", bool_text(entry.backward), bool_text(build.backward)});
  }
  if (build.line_directives != entry.line_directives) {
    // Line directives come from lineinfo, or from mode "debug" with lineinfo off: say which the build had.
    const auto mode = build_options.find("mode");
    const bool debug = mode != build_options.end() && mode->second == "'debug'";
    const auto lineinfo = build_options.find("lineinfo");
    const bool lineinfo_on = lineinfo != build_options.end() && lineinfo->second == "True";
    if (build.line_directives && debug && !lineinfo_on) {
      changes.push_back({"mode", "not 'debug' (no #line directives)", "'debug'"});
    } else {
      changes.push_back({"lineinfo", bool_text(entry.line_directives), bool_text(build.line_directives)});
    }
  }
  return changes;
}

auto closeness(const EntryDifference& difference) {
  return std::make_tuple(!difference.unreadable.empty(), difference.kernel_differences(), difference.options.size(),
                         difference.functions_changed.size() + (difference.shared_code_differs ? 1 : 0),
                         difference.entry);
}

MissCause cause_of(const EntryDifference& closest) {
  if (!closest.unreadable.empty()) return MissCause::unexplained;
  if (closest.kernel_differences() > 0) return MissCause::kernels_differ;
  if (!closest.options.empty()) return MissCause::options_differ;
  if (!closest.functions_changed.empty() || closest.shared_code_differs) return MissCause::functions_differ;
  return MissCause::compiler_only;
}

std::string source_extension(const std::string& device) {
  return device.starts_with("cuda") ? ".cu" : ".cpp";
}

fs::path entry_path(const fs::path& root, const std::string& group, const std::string& name) {
  return group.empty() ? root / name : root / group / name;
}

// The generated source an entry holds for this device, or why it holds none.
CandidateEntry read_entry(const fs::path& folder, const std::string& name, const std::string& device) {
  CandidateEntry candidate;
  candidate.name = name;
  const std::string source_name = name + source_extension(device);
  const auto text = read_file_quietly(folder / source_name);
  if (!text) {
    candidate.unreadable =
        fmt::format("it holds no readable generated {} source ({})", source_extension(device), source_name);
    return candidate;
  }
  candidate.source = parse_generated_source(*text);
  return candidate;
}

// "holds wp_x_1a2b3c4.sm86.cubin, wp_x_1a2b3c4.meta": what a same-hash entry has, so a reader
// sees which device or CPU target it was built for.
std::string held_files(const fs::path& folder) {
  const auto names = list_folder_quietly(folder);
  return names.empty() ? "it is empty" : fmt::format("it holds {}", fmt::join(names, ", "));
}

std::map<std::string, std::string> options_of(const std::vector<ModuleEvent>& loads, const ModuleIdentity& identity) {
  for (const auto& load : loads) {
    if (identity_of(load) == identity && load.detail && !load.detail->options.empty()) return load.detail->options;
  }
  return {};
}

}  // namespace

EntryDifference compare_generated(const GeneratedSource& build, const GeneratedSource& entry,
                                  const std::map<std::string, std::string>& build_options) {
  EntryDifference difference;
  const bool compare_backward = build.backward && entry.backward;
  for (const auto& [key, forward] : build.kernel_forward) {
    const auto cached = entry.kernel_forward.find(key);
    if (cached == entry.kernel_forward.end()) {
      difference.kernels_added.push_back(key);
      continue;
    }
    const bool same = cached->second == forward &&
                      (!compare_backward || entry.kernel_backward.at(key) == build.kernel_backward.at(key));
    (same ? difference.kernels_identical : difference.kernels_changed).push_back(key);
  }
  for (const auto& [key, forward] : entry.kernel_forward) {
    if (!build.kernel_forward.contains(key)) difference.kernels_removed.push_back(key);
  }
  std::set<std::string> functions;
  for (const auto& [name, code] : build.functions) {
    // An adjoint is backward code: with backward code on one side only, that option says it.
    if (is_adjoint_function(name) && !compare_backward) continue;
    const auto cached = entry.functions.find(name);
    if (cached == entry.functions.end() || cached->second != code) functions.insert(function_display_name(name));
  }
  for (const auto& [name, code] : entry.functions) {
    if (is_adjoint_function(name) && !compare_backward) continue;
    if (!build.functions.contains(name)) functions.insert(function_display_name(name));
  }
  difference.functions_changed.assign(functions.begin(), functions.end());
  difference.shared_code_differs = build.shared != entry.shared;
  difference.options = option_changes(build, entry, build_options);
  return difference;
}

CacheMiss explain_miss(const std::string& build_entry, const GeneratedSource& build,
                       const std::vector<CandidateEntry>& candidates,
                       const std::map<std::string, std::string>& build_options) {
  CacheMiss miss;
  miss.build_entry = build_entry;
  miss.same_name_entries = candidates.size();
  std::vector<EntryDifference> differences;
  for (const auto& candidate : candidates) {
    EntryDifference difference;
    if (candidate.source) {
      difference = compare_generated(build, *candidate.source, build_options);
    } else {
      difference.unreadable = candidate.unreadable;
    }
    difference.entry = candidate.name;
    differences.push_back(std::move(difference));
  }
  std::sort(differences.begin(), differences.end(),
            [](const EntryDifference& a, const EntryDifference& b) { return closeness(a) < closeness(b); });
  if (differences.size() > kMaxComparedKept) differences.resize(kMaxComparedKept);
  miss.closest = std::move(differences);
  if (miss.closest.empty()) {
    miss.cause = MissCause::no_entry;
  } else {
    miss.cause = cause_of(miss.closest.front());
    if (miss.cause == MissCause::unexplained) miss.detail = miss.closest.front().unreadable;
  }
  return miss;
}

bool is_entry_of(const std::string& directory, const std::string& module) {
  const std::string prefix = "wp_" + module;
  if (directory == prefix) return true;
  return directory.size() == prefix.size() + 8 && directory.starts_with(prefix + "_") && has_hash_suffix(directory);
}

void explain_misses(CacheAudit& audit, const fs::path& dir, const fs::path& copy,
                    const std::vector<ModuleEvent>& loads) {
  for (auto& module : audit.modules) {
    if (module.served != ServedBy::compiled) continue;
    const std::string& name = module.identity.name;
    CacheMiss miss;
    miss.build_entry = module.entry;
    std::vector<const AuditedEntry*> same_name;
    bool same_hash_in_dir = false;
    for (const auto& audited : audit.entries) {
      if (!audited.in_dir || !is_entry_of(audited.entry.name, name)) continue;
      if (audited.entry.group != audit.run_group) {
        ++miss.other_version_entries;
      } else if (audited.entry.name == module.entry && !module.hashless) {
        same_hash_in_dir = true;
      } else {
        same_name.push_back(&audited);
      }
    }
    if (same_hash_in_dir) {
      // The very entry was there: the load compiled because it lacked this device's binary.
      miss.cause = MissCause::no_device_build;
      miss.same_name_entries = same_name.size() + 1;
      miss.detail = held_files(entry_path(dir, audit.run_group, module.entry));
      module.miss = std::move(miss);
      continue;
    }
    const fs::path build_folder = entry_path(copy, audit.run_group, module.entry);
    const CandidateEntry build = read_entry(build_folder, module.entry, module.identity.device);
    std::vector<CandidateEntry> candidates;
    for (const auto* audited : same_name) {
      candidates.push_back(read_entry(entry_path(dir, audited->entry.group, audited->entry.name), audited->entry.name,
                                      module.identity.device));
    }
    const std::size_t other_versions = miss.other_version_entries;
    if (!build.source) {
      miss.cause = candidates.empty() ? MissCause::no_entry : MissCause::unexplained;
      miss.same_name_entries = candidates.size();
      if (!candidates.empty()) miss.detail = "the fresh build " + module.entry + ": " + build.unreadable;
    } else {
      miss = explain_miss(module.entry, *build.source, candidates, options_of(loads, module.identity));
    }
    miss.other_version_entries = other_versions;
    module.miss = std::move(miss);
  }
}

}  // namespace wcp::measure
