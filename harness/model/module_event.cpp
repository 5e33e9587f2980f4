#include "model/module_event.h"

#include <filesystem>
#include <regex>
#include <utility>

namespace wcp {

std::string to_string(LoadStatus status) {
  switch (status) {
    case LoadStatus::compiled:
      return "compiled";
    case LoadStatus::cached:
      return "cached";
    case LoadStatus::error:
      return "error";
  }
  return "compiled";
}

std::optional<LoadStatus> load_status_from_string(std::string_view text) {
  if (text == "compiled") return LoadStatus::compiled;
  if (text == "cached") return LoadStatus::cached;
  if (text == "error") return LoadStatus::error;
  return std::nullopt;
}

std::string to_string(LoadTimer timer) {
  return timer == LoadTimer::warp ? "warp" : "probe";
}

std::optional<LoadTimer> load_timer_from_string(std::string_view text) {
  if (text == "warp") return LoadTimer::warp;
  if (text == "probe") return LoadTimer::probe;
  return std::nullopt;
}

std::string to_string(ClosureKind kind) {
  switch (kind) {
    case ClosureKind::none:
      return "none";
    case ClosureKind::literals:
      return "literals";
    case ClosureKind::arguments:
      return "arguments";
    case ClosureKind::values:
      return "values";
  }
  return "none";
}

std::optional<ClosureKind> closure_kind_from_string(std::string_view text) {
  if (text == "none") return ClosureKind::none;
  if (text == "literals") return ClosureKind::literals;
  if (text == "arguments") return ClosureKind::arguments;
  if (text == "values") return ClosureKind::values;
  return std::nullopt;
}

std::string to_string(TestPhase phase) {
  switch (phase) {
    case TestPhase::collection:
      return "collection";
    case TestPhase::import:
      return "import";
    case TestPhase::setup:
      return "setup";
    case TestPhase::call:
      return "call";
    case TestPhase::teardown:
      return "teardown";
    case TestPhase::session:
      return "session";
  }
  return "call";
}

std::string test_label(const TestContext& test) {
  std::string label = test.id.empty() ? to_string(test.phase) : test.id;
  if (!test.id.empty() && (test.phase == TestPhase::setup || test.phase == TestPhase::teardown))
    label += " (" + to_string(test.phase) + ")";
  if (!test.worker.empty()) label += " [" + test.worker + "]";
  return label;
}

std::optional<TestPhase> test_phase_from_string(std::string_view text) {
  for (TestPhase phase : {TestPhase::collection, TestPhase::import, TestPhase::setup, TestPhase::call,
                          TestPhase::teardown, TestPhase::session}) {
    if (text == to_string(phase)) return phase;
  }
  return std::nullopt;
}

ModuleEvent loaded_module(ModuleIdentity identity, double ms, LoadStatus status, std::optional<double> native_ms,
                          bool built_pch, LoadTimer timer) {
  ModuleEvent event;
  event.name = std::move(identity.name);
  event.hash = std::move(identity.hash);
  event.device = std::move(identity.device);
  event.block_dim = identity.block_dim;
  event.ms = ms;
  event.status = status;
  event.native_ms = native_ms;
  event.built_pch = built_pch && status == LoadStatus::compiled;
  event.timer = timer;
  return event;
}

std::string short_file(const std::string& path) {
  const auto name = std::filesystem::path(path).filename().string();
  const auto parent = std::filesystem::path(path).parent_path().filename().string();
  return parent.empty() ? name : parent + "/" + name;
}

std::string short_location(const SourceLocation& location) {
  return short_file(location.file) + ":" + std::to_string(location.line);
}

std::optional<std::string> unique_module_kernel(std::string_view module_name) {
  // A kernel key is an identifier, so a dotted name (a Python module's, warp.fem's generated
  // "<module>.<key>") is never a unique module's.
  if (module_name.find('.') != std::string_view::npos) return std::nullopt;
  static const std::regex pattern(R"((.+)_[0-9a-f]{8})");
  std::match_results<std::string_view::const_iterator> match;
  if (!std::regex_match(module_name.begin(), module_name.end(), match, pattern)) return std::nullopt;
  return match[1].str();
}

std::string unique_kernel_factory(std::string_view kernel_key) {
  constexpr std::string_view kLocals = "__locals__";
  const auto at = kernel_key.rfind(kLocals);
  if (at == std::string_view::npos || at == 0 || at + kLocals.size() == kernel_key.size()) return "";
  return std::string(kernel_key.substr(0, at));
}

}  // namespace wcp
