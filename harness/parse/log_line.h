#pragma once
// Recognises the few lines of Warp's output that matter, in every form Warp 1.x prints them:
//   Module <name> [<hash7>] load on device '<dev>' [(block_dim=<n>)] took <ms> ms  (compiled|cached|error)
//   Compile x86 took <ms> ms  /  Compile CUDA (<details>) took <ms> ms
//   [Module.load] Module hash changed, recompiling: <name> (<old8> -> <new8>)
//   Warp: Generating precompiled header: <path>
//   Warp <version> initialized:
// Anything else is ordinary application output. Views point into the caller's line.
#include <optional>
#include <string_view>
#include <variant>

#include "model/module_event.h"

namespace wcp::parse {

struct ModuleLoadLine {
  std::string_view name;
  std::string_view hash;  // empty for strip_hash modules
  std::string_view device;
  std::optional<int> block_dim;
  double ms = 0.0;
  LoadStatus status = LoadStatus::compiled;
};

struct NativeCompileLine {
  bool cuda = false;
  std::string_view details;  // "arch=sm_90, mode=release, block_dim=256" for CUDA
  double ms = 0.0;
};

struct HashChangedLine {
  std::string_view module;
  std::string_view old_hash;
  std::string_view new_hash;
};

struct PchGeneratedLine {};

struct WarpInitLine {
  std::string_view version;
};

using LogLine =
    std::variant<std::monostate, ModuleLoadLine, NativeCompileLine, HashChangedLine, PchGeneratedLine, WarpInitLine>;

// `line` has no trailing '\n'; a trailing '\r' and ANSI colour codes are tolerated only after
// strip_terminal_noise() — parse_line() itself expects clean text.
LogLine parse_line(std::string_view line);

// Where a second Warp message starts inside `line`, or npos. Warp's timers print their text and
// the newline in two writes, so loads on parallel threads can land on one line ("... took 0.70 ms
// (cached)    Module b ... took 1.07 ms  (cached)"). A message starts with "Module ", "Compile "
// or "Warp " right after the end of another (an indent may lie between): a timer's "ms" or
// "(status)", or a start line's "...". Text such as "[Module.load] Module hash changed" is one
// message: "]" ends nothing.
std::size_t next_message_start(std::string_view line);

// Removes ANSI escape sequences and a trailing '\r'. Returns `line` itself when it is clean
// (the common case), else a view into `storage`.
std::string_view strip_terminal_noise(std::string_view line, std::string& storage);

}  // namespace wcp::parse
