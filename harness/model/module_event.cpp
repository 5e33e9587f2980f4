#include "model/module_event.h"

#include <filesystem>
#include <regex>
#include <utility>

#include "io/name_table.h"

namespace wcp {

namespace {

constexpr NameTable<LoadStatus, 3> kLoadStatusNames{
    {{LoadStatus::compiled, "compiled"}, {LoadStatus::cached, "cached"}, {LoadStatus::error, "error"}}};
constexpr NameTable<LoadTimer, 2> kLoadTimerNames{{{LoadTimer::warp, "warp"}, {LoadTimer::probe, "probe"}}};
constexpr NameTable<ClosureKind, 4> kClosureKindNames{{{ClosureKind::none, "none"},
                                                       {ClosureKind::literals, "literals"},
                                                       {ClosureKind::arguments, "arguments"},
                                                       {ClosureKind::values, "values"}}};
constexpr NameTable<TestPhase, 6> kTestPhaseNames{{{TestPhase::collection, "collection"},
                                                   {TestPhase::import, "import"},
                                                   {TestPhase::setup, "setup"},
                                                   {TestPhase::call, "call"},
                                                   {TestPhase::teardown, "teardown"},
                                                   {TestPhase::session, "session"}}};

}  // namespace

std::string to_string(LoadStatus status) {
  return std::string(name_of(kLoadStatusNames, status));
}

std::optional<LoadStatus> load_status_from_string(std::string_view text) {
  return value_named(kLoadStatusNames, text);
}

std::string to_string(LoadTimer timer) {
  return std::string(name_of(kLoadTimerNames, timer));
}

std::optional<LoadTimer> load_timer_from_string(std::string_view text) {
  return value_named(kLoadTimerNames, text);
}

std::string to_string(ClosureKind kind) {
  return std::string(name_of(kClosureKindNames, kind));
}

std::optional<ClosureKind> closure_kind_from_string(std::string_view text) {
  return value_named(kClosureKindNames, text);
}

std::string to_string(TestPhase phase) {
  return std::string(name_of(kTestPhaseNames, phase));
}

std::optional<TestPhase> test_phase_from_string(std::string_view text) {
  return value_named(kTestPhaseNames, text);
}

std::string test_label(const TestContext& test) {
  std::string label = test.id.empty() ? to_string(test.phase) : test.id;
  if (!test.id.empty() && (test.phase == TestPhase::setup || test.phase == TestPhase::teardown))
    label += " (" + to_string(test.phase) + ")";
  if (!test.worker.empty()) label += " [" + test.worker + "]";
  return label;
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
