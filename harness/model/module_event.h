#pragma once
// One module load as Warp reported it, enriched by the instrumentation when it attached.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/pass.h"

namespace wcp {

enum class LoadStatus { compiled, cached, error };

std::string to_string(LoadStatus status);
std::optional<LoadStatus> load_status_from_string(std::string_view text);

// Whose clock a load's `ms` is (schema 6): Warp's own "took N ms" timer, read from its log, or
// the instrumentation's clock around the same span (a program that keeps Warp quiet prints no
// timer; the instrumentation's span starts and ends where Warp's timer does, within a few µs).
enum class LoadTimer { warp, probe };

std::string to_string(LoadTimer timer);
std::optional<LoadTimer> load_timer_from_string(std::string_view text);

// An installed distribution (a dependency), as the instrumentation named it.
struct Package {
  std::string name;     // e.g. "warp-lang"
  std::string version;  // e.g. "1.19.0"
  bool operator==(const Package&) const = default;
};

// What a module="unique" kernel's function captured from the code that defined it, as the
// instrumentation saw it when the kernel was defined (schema 5). It tells a kernel a factory makes
// from its own constants from one it makes from what its caller hands in.
enum class ClosureKind {
  none,       // captures nothing from an enclosing function
  literals,   // captures only int, float, bool, str, None or tuples of them, none of them an argument
  arguments,  // captures an argument of the function that defined it: made from its caller's values
  values,     // captures something else (an array, a function, a Warp type, an object)
};

std::string to_string(ClosureKind kind);
std::optional<ClosureKind> closure_kind_from_string(std::string_view text);

// A kernel as the instrumentation saw it in a module at load time.
struct KernelInfo {
  std::string key;
  std::string file;
  int line = 0;
  std::vector<std::string> overloads;  // generic instances, as type signatures
  std::optional<bool> adjoint;         // backward code generated for it, when known
  std::string qualname;                // the function's __qualname__ ("<locals>" in it: made inside a function)
  std::string python_module;           // the function's __module__
  std::optional<Package> package;      // the distribution it ships in; absent for the application's own code
  // The first 8 hex of Warp's content hash of the kernel at this load; a closure re-created with
  // another captured value has the same key and line but another hash. "" when unknown.
  std::string hash;
  // Recorded for module="unique" kernels at their definition; absent when not recorded (another
  // kind of kernel, a report before schema 5, or the instrumentation could not tell).
  std::optional<ClosureKind> closure;
  // Schema 10, absent when not recorded. The kernel's argument names, and the values its code
  // names from outside it as Warp hashes them (name -> repr): Warp resolves every name the code
  // reads and does not assign, an argument's name included, so a module global that shares an
  // argument's name is hashed as a constant of the kernel.
  std::optional<std::vector<std::string>> args;
  // Schema 10: which kernel object this is within its process (a serial the instrumentation
  // gives each object it sees); absent when not recorded.
  std::optional<int> object;
  std::optional<std::map<std::string, std::string>> constants;
  bool operator==(const KernelInfo&) const = default;
};

// One overload of a user function, as Warp hashes the function (generic instances left out).
struct FunctionOverload {
  std::string signature;
  std::string file;
  int line = 0;
  bool operator==(const FunctionOverload&) const = default;
};

// A user @wp.func Warp hashed for a load, reached from the module's live kernels.
struct FunctionInfo {
  std::string key;
  std::string file;
  int line = 0;
  std::string module;  // the Warp module it was registered in
  std::string hash;    // the first 8 hex of Warp's hash of it (all its overloads)
  std::vector<FunctionOverload> overloads;
  std::optional<std::map<std::string, std::string>> constants;  // as KernelInfo::constants
  bool operator==(const FunctionInfo&) const = default;
};

// A place in Python source.
struct SourceLocation {
  std::string file;
  int line = 0;
  std::string function;
  bool operator==(const SourceLocation&) const = default;
};

// "<folder>/<file>:<line>": a place short enough for one line of output (the folder tells
// apart the many app.py of the fixtures and of real projects).
std::string short_location(const SourceLocation& location);
std::string short_file(const std::string& path);

// `@wp.kernel(module="unique")` names each module "<kernel key>_<8 hex of its content hash>":
// the kernel key for such a name, nullopt otherwise.
// Warp 1.9 and 1.19 alike: the key is the function's __qualname__ with "." as "__" and every other
// character that is not a letter, digit or "_" dropped, so a kernel made inside `make_k()` is
// "make_k__locals__k" and its module "make_k__locals__k_<8 hex>"; a generic kernel keeps one
// module name for all its instances (the hash after the name changes as they are added); a
// closure re-made with other captured values gets another name. `name=` (1.19) replaces the key.
std::optional<std::string> unique_module_kernel(std::string_view module_name);
// The function that made a kernel, from its key: "make_k" for "make_k__locals__k" (the innermost
// one when factories nest); "" for a kernel defined outside any function.
std::string unique_kernel_factory(std::string_view kernel_key);

// Which part of a test suite was running when a load happened (schema 11): pytest's current
// test and its phase, unittest's running test, or a phase of the suite around its tests.
enum class TestPhase {
  collection,  // pytest collecting (importing test files) before any test ran
  import,      // a module's import under a test runner, outside any test
  setup,       // a test's setup (pytest fixtures, unittest setUp)
  call,        // the test itself
  teardown,    // a test's teardown (pytest fixtures, unittest tearDown and cleanups)
  session,     // under a test runner, between or after tests (session fixtures, hooks, exit)
};
std::string to_string(TestPhase phase);
std::optional<TestPhase> test_phase_from_string(std::string_view text);
struct TestContext {
  std::string id;  // "tests/test_x.py::test_y[param]" or "test_x.TestX.test_y"; "" for a phase of the suite
  TestPhase phase = TestPhase::call;
  std::string worker;  // pytest-xdist's worker ("gw0"); "" when not under xdist
  bool operator==(const TestContext&) const = default;
};
// How output names it: "tests/test_x.py::test_y", "... (setup)" for a test's setup or teardown,
// "collection" / "import" / "session" for a phase of the suite, "[gw1]" after it under xdist.
std::string test_label(const TestContext& test);

// What the instrumentation knows about a load that Warp's log does not say.
struct LoadDetail {
  std::string full_hash;                              // hex, as long as Warp exposes it
  std::vector<KernelInfo> kernels;                    // live kernels of the module at this load
  std::map<std::string, std::string> options;         // module option values (repr)
  std::map<std::string, std::string> config_at_load;  // warp.config values that modules copy
  std::optional<SourceLocation> trigger;              // first frame outside Warp on the loading stack
  std::vector<SourceLocation> stack;                  // the loading stack, innermost first (Warp frames kept)
  int pid = 0;                                        // the process that loaded it
  // On the run's clock: seconds since the tool started the command. The start is where Warp's
  // load timer starts (after hashing); 0 when unknown (reports of schema 1 kept only the end,
  // in seconds since the instrumentation attached).
  double start_s = 0.0;
  double end_s = 0.0;
  std::optional<bool> compiled;  // built (true) or taken from the cache (false)
  // The instrumentation's own time inside Warp's load timer for this load, as it measured it
  // (schema 4); absent from older reports. Warp's "took N ms" includes it.
  std::optional<double> hook_ms;
  std::optional<long long> thread;  // the OS thread that loaded it (schema 4)
  std::string error;                // for a failed load, "Type: message"
  // Schema 10: the user functions Warp hashed for this load; absent when not recorded.
  std::optional<std::vector<FunctionInfo>> functions;
  // Schema 11: the test (or suite phase) running when the load started; absent when the
  // program ran under no test runner the instrumentation knows, or an older report.
  std::optional<TestContext> test;
  // Schema 13: the CPU seconds the build used (measure/module_cpu.h). `cpu_ms` is the loading
  // thread's CPU time across the span Warp times, less hook_ms; absent where the platform has no
  // per-thread clock, and in earlier reports. `children_cpu_s` is the process's reaped-children
  // CPU counter at the span's start and end, for a build that waits on a child process.
  std::optional<double> cpu_ms;
  std::optional<std::pair<double, double>> children_cpu_s;
  bool operator==(const LoadDetail&) const = default;
};

struct ModuleEvent {
  std::string name;
  std::string hash;  // Warp's 7-hex short hash; empty when the module uses strip_hash
  std::string device;
  std::optional<int> block_dim;
  double ms = 0.0;
  LoadStatus status = LoadStatus::compiled;
  Pass pass = Pass::cold;
  // The native compiler's time inside this load: the instrumentation's build hooks, else Warp's
  // "Compile x86/CUDA took" timer; absent when neither saw it.
  std::optional<double> native_ms;
  bool built_pch = false;  // this load also generated the process's precompiled header
  std::optional<LoadDetail> detail;
  LoadTimer timer = LoadTimer::warp;  // whose clock `ms` is (schema 6)
  bool operator==(const ModuleEvent&) const = default;
};

// A compiled module identity: every distinct one is a full code generation + native compile.
struct ModuleIdentity {
  std::string name;
  std::string hash;
  std::string device;
  std::optional<int> block_dim;
  auto operator<=>(const ModuleIdentity&) const = default;
};

inline ModuleIdentity identity_of(const ModuleEvent& event) {
  return {event.name, event.hash, event.device, event.block_dim};
}

// One load as the report keeps it, whichever source saw it (Warp's log or the instrumentation's
// records): the one place that says a load built the precompiled header only if it compiled
// (a cached load reads none, whatever its process generated around it).
ModuleEvent loaded_module(ModuleIdentity identity, double ms, LoadStatus status, std::optional<double> native_ms,
                          bool built_pch, LoadTimer timer);

// Warp's "[Module.load] Module hash changed, recompiling: <module> (<old> -> <new>)".
struct HashChange {
  std::string module;
  std::string old_hash;
  std::string new_hash;
  bool operator==(const HashChange&) const = default;
};

// An application call that empties a kernel cache (wp.clear_kernel_cache() and friends).
struct CacheClear {
  std::string what;  // the function, e.g. "clear_kernel_cache"
  std::optional<SourceLocation> site;
  bool operator==(const CacheClear&) const = default;
};

}  // namespace wcp
