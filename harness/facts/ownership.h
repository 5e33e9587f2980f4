#pragma once
// Whose code a module or a stack frame is: the measured user's, a dependency's (an installed
// distribution), Warp's own, or Python's; and whether a module's kernels were written at module
// scope or generated at run time (closures, factories, warp.fem integrands, `.dyn.` modules).
// Advice follows from it: a finding about code the user does not own never tells them to edit
// it (docs/mechanisms.md, "Whose code a finding is about").
//
// Told from the instrumentation's kernel snapshots (each kernel's file, qualname, Python module
// and distribution) and the loading stacks; without them (Warp's log only, the original probe's
// reports) it is guessed from the module name and says so.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"

namespace wcp {

enum class Owner {
  user,        // the measured program: its entry script and code outside installed packages
  dependency,  // an installed distribution (site-packages) other than Warp
  warp,        // the warp package itself (its examples count as Warp's unless one is the program)
  python,      // the interpreter: frozen modules, the standard library
};

std::string_view to_string(Owner owner);

struct ModuleOwnership {
  Owner owner = Owner::user;
  bool from_snapshot = false;      // told by the instrumentation; false: guessed from the module name
  std::optional<Package> package;  // the distribution, for a dependency or Warp
  bool generated = false;          // its kernels were made at run time rather than written at module scope
  // Set when someone other than the owner generated the module: Warp (warp.fem integrands, its
  // dynamic kernels) building a module named after the user's Python module. The user owns the
  // code it came from, not the module's boundaries.
  std::optional<Owner> generator;
  std::string generated_by;   // "warp.fem", "make_kernel() in app.py", ...
  std::string python_module;  // the Python module a generated Warp module is named after

  // The user can change the module itself (its kernels, boundaries, options).
  bool users_to_change() const { return owner == Owner::user && !generator; }
  // One phrase for evidence and headings: "your code", "Warp's own code (warp-lang 1.19.0)", ...
  std::string describe() const;
  bool operator==(const ModuleOwnership&) const = default;
};

// The frames of a loading stack that advice points at.
struct TriggerFrames {
  std::optional<SourceLocation> site;            // innermost frame outside Warp's core (and Python's)
  std::optional<SourceLocation> user_innermost;  // innermost frame in the user's code
  std::optional<SourceLocation> user_outermost;  // outermost frame in the user's code
};

// Classifies the code of one report. Holds pointers into the report: do not outlive it.
class CodeOwnership {
 public:
  explicit CodeOwnership(const Report& report);

  Owner owner_of_file(std::string_view file) const;
  // Under the warp package but not its examples or tests: where rebuild triggers never point.
  bool in_warp_core(std::string_view file) const;
  ModuleOwnership of_module(const std::string& module_name) const;
  // Whose code a line is in (an option write's call site): told from the file's path, with the
  // distribution when this report's kernels name the package it ships in.
  ModuleOwnership of_file(std::string_view file) const;
  TriggerFrames trigger_of(const LoadDetail& detail) const;

 private:
  bool in_warp(std::string_view file) const;
  std::optional<Owner> owner_of_namespace(const std::string& python_module) const;
  std::optional<Package> warp_package(const std::vector<const KernelInfo*>& kernels) const;

  std::string warp_dir_;
  std::string warp_version_;
  std::set<std::string, std::less<>> program_files_;  // the entry scripts of the run's processes
  std::map<std::string, std::vector<const KernelInfo*>, std::less<>> kernels_by_module_;  // at the last load
  std::map<std::string, Owner, std::less<>> owner_by_python_module_;
  std::map<std::string, Package, std::less<>> package_by_top_level_;
};

}  // namespace wcp
