#pragma once
// One in-process NVRTC compile, timed: create the program, compile it with the given
// options, collect the log and the output, destroy the program. Only the
// nvrtcCompileProgram call is on the clock; creating and destroying a program is bookkeeping
// that costs microseconds.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "calibrate/gpu_target.h"
#include "calibrate/nvrtc_library.h"

namespace wcp::calibrate {

// NVRTC's own split of the compile (--time=-): the C++ front end, where header parsing
// happens, against everything after it (NVVM optimiser, PTX generation, PTX assembly).
struct PhaseTimes {
  double front_end_ms = 0.0;
  double back_end_ms = 0.0;
};

struct CompileRequest {
  std::string source;
  std::string name;                  // the program's file name in diagnostics, e.g. "family_k4.cu"
  std::vector<std::string> options;  // everything, including --gpu-architecture
  OutputKind output = OutputKind::kCubin;
};

struct CompileOutcome {
  int status = kNvrtcSuccess;  // nvrtcResult of nvrtcCompileProgram
  double wall_ms = 0.0;
  double cpu_ms = 0.0;  // CPU time of this process during the compile, all threads
  std::string log;
  std::string output;          // PTX text or CUBIN bytes; empty unless status is success
  bool succeeded() const { return status == kNvrtcSuccess; }
};

// Never throws for a failed compile: option probing needs to see INVALID_OPTION.
// Throws RunError when NVRTC cannot even create the program or return its output.
CompileOutcome try_compile(const NvrtcLibrary& nvrtc, const CompileRequest& request);

// As try_compile, but a failed compile throws RunError: one line naming the program and
// NVRTC's status, then NVRTC's log on the following lines.
CompileOutcome compile(const NvrtcLibrary& nvrtc, const CompileRequest& request);

// Parses the CSV that --time=- appends to the program log. nullopt when the log holds none.
std::optional<PhaseTimes> parse_phase_times(std::string_view log);

// What NVRTC's automatic precompiled-header support did for this compile, read from the log.
enum class PchUse { kNone, kCreated, kUsed };
PchUse pch_use(std::string_view log);

}  // namespace wcp::calibrate
