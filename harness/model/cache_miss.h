#pragma once
// Why `measure --warm-cache DIR` built a module fresh instead of taking it from DIR (schema 11,
// issue 41): the fresh build's generated source against each entry of the same module name in
// DIR's folder for this Warp, kernel by kernel, closest entry first. Warp's `.meta` records only
// each entry point's shared-memory size, so the options an entry was built with are read from
// what they leave in its generated source (block_dim, backward code, #line directives); an option
// that reaches only the compiler (fast_math, optimization_level, ...) leaves no trace there.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wcp {

enum class MissCause {
  no_entry,          // DIR has no entry of this module name in the run's Warp folder
  kernels_differ,    // a kernel's generated source differs, or a kernel is in one only
  options_differ,    // same kernels; an option the generated source shows differs (block_dim, ...)
  functions_differ,  // same kernels and options; a function or the code shared by the kernels differs
  compiler_only,     // the same generated source: an option that reaches only the compiler differs
  no_device_build,   // DIR's entry has this very hash but no binary for this device or CPU target
  unexplained,       // the sources could not be compared (`detail` says why)
};
std::string to_string(MissCause cause);
std::optional<MissCause> miss_cause_from_string(std::string_view text);

// An option whose value the entry's generated source shows, as it differs from the build's.
struct OptionChange {
  std::string option;  // e.g. "enable_backward", "block_dim"
  std::string entry;   // its value in the entry, as far as the source shows it
  std::string build;   // its value in the build (the load's option repr when recorded)
  bool operator==(const OptionChange&) const = default;
};

// The fresh build against one entry of DIR of the same module name.
struct EntryDifference {
  std::string entry;                           // the entry's directory name
  std::vector<std::string> kernels_changed;    // same key, other generated code
  std::vector<std::string> kernels_added;      // in the build only
  std::vector<std::string> kernels_removed;    // in the entry only
  std::vector<std::string> kernels_identical;  // the same generated code
  std::vector<std::string> functions_changed;  // @wp.func code before the kernels that differs or is in one only
  bool shared_code_differs = false;            // the rest before the kernels (structs, preamble, header)
  std::vector<OptionChange> options;
  std::string unreadable;  // why this entry could not be compared; "" when it was
  std::size_t kernel_differences() const {
    return kernels_changed.size() + kernels_added.size() + kernels_removed.size();
  }
  bool operator==(const EntryDifference&) const = default;
};

struct CacheMiss {
  MissCause cause = MissCause::unexplained;
  std::string build_entry;                // the directory the fresh build made in the copy
  std::size_t same_name_entries = 0;      // DIR's entries of this module name in the run's Warp folder
  std::size_t other_version_entries = 0;  // of this module name in other Warp version folders (never read)
  std::vector<EntryDifference> closest;   // closest first, at most kMaxComparedKept of them
  std::string detail;                     // no_device_build: what the entry holds; unexplained: why
  bool operator==(const CacheMiss&) const = default;
};

// How many compared entries a miss keeps (the closest); `same_name_entries` counts them all.
inline constexpr std::size_t kMaxComparedKept = 5;

}  // namespace wcp
