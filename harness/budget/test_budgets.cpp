#include "budget/test_budgets.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "budget/budget_keys.h"
#include "facts/queries.h"

namespace wcp::budget {
namespace {

// How many modules a failing test's line names before "+N more".
constexpr std::size_t kNamedModules = 4;
// How many failing tests an outcome lists.
constexpr std::size_t kListedTests = 5;

bool is_test(const TestContext& test) {
  return test.phase == TestPhase::setup || test.phase == TestPhase::call || test.phase == TestPhase::teardown;
}

// `pattern` names a test: its whole id, or a pytest id without its parameters (every
// parametrisation of that test).
bool names_test(const std::string& id, const std::string& pattern) {
  return id == pattern || (id.size() > pattern.size() && id.starts_with(pattern) && id[pattern.size()] == '[');
}

// What one test was charged with: its cold-pass builds, less (under xdist) those of modules
// another test also loaded.
struct TestCharge {
  std::string id;
  int builds = 0;
  double ms = 0.0;
  std::vector<std::string> modules;  // in build order
  std::set<std::string> shared;      // left out under xdist: another test loaded the same identity
};

bool under_xdist(const Report& report) {
  return std::ranges::any_of(report.module_events, [](const ModuleEvent& event) {
    return event.pass == Pass::cold && event.detail && event.detail->test && !event.detail->test->worker.empty();
  });
}

bool has_test_context(const Report& report) {
  return std::ranges::any_of(report.module_events, [](const ModuleEvent& event) {
    return event.pass == Pass::cold && event.detail && event.detail->test;
  });
}

// Under xdist, which test builds a module several tests need depends on how the tests were
// spread over the workers, so a test is charged only the identities no other test loaded
// (compiled or from the cache) anywhere in the run; the shared ones are gated suite-wide
// (max_identities, max_modules) and named beside a failure.
std::map<ModuleIdentity, std::set<std::string>> loaders_by_identity(const Report& report) {
  std::map<ModuleIdentity, std::set<std::string>> loaders;
  for (const auto& event : report.module_events) {
    if (event.pass != Pass::cold || !event.detail || !event.detail->test) continue;
    const auto& test = *event.detail->test;
    loaders[identity_of(event)].insert(is_test(test) ? test.id : to_string(test.phase));
  }
  return loaders;
}

std::vector<TestCharge> test_charges(const Report& report) {
  const bool xdist = under_xdist(report);
  const auto loaders = xdist ? loaders_by_identity(report) : std::map<ModuleIdentity, std::set<std::string>>{};
  std::map<std::string, TestCharge> charges;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->detail || !event->detail->test || !is_test(*event->detail->test)) continue;
    const std::string& id = event->detail->test->id;
    TestCharge& charge = charges[id];
    charge.id = id;
    if (xdist) {
      const auto found = loaders.find(identity_of(*event));
      if (found != loaders.end() && found->second.size() > 1) {
        charge.shared.insert(event->name);
        continue;
      }
    }
    ++charge.builds;
    charge.ms += event->ms;
    charge.modules.push_back(event->name);
  }
  std::vector<TestCharge> out;
  for (auto& [id, charge] : charges) out.push_back(std::move(charge));
  return out;
}

std::string modules_text(const std::vector<std::string>& modules) {
  std::vector<std::string> named(modules.begin(), modules.begin() + std::min(modules.size(), kNamedModules));
  std::string text = fmt::format("{}", fmt::join(named, ", "));
  if (modules.size() > named.size()) text += fmt::format(" (+{} more)", modules.size() - named.size());
  return text;
}

Offender test_offender(const TestCharge& charge) {
  Offender offender;
  offender.test = charge.id;
  offender.detail =
      fmt::format("{} build(s), {:.2f} s: {}", charge.builds, charge.ms / 1000.0, modules_text(charge.modules));
  if (!charge.shared.empty()) {
    offender.explanation = fmt::format("not charged under xdist (another test also loaded them): {}",
                                       modules_text({charge.shared.begin(), charge.shared.end()}));
  }
  return offender;
}

BudgetOutcome unmeasured(std::string_view budget, double limit, Unit unit, std::string why) {
  BudgetOutcome outcome;
  outcome.budget = std::string(budget);
  outcome.limit = limit;
  outcome.unit = unit;
  outcome.verdict = Verdict::fail;  // missing is not zero: a budget on tests needs tests
  outcome.note = std::move(why);
  return outcome;
}

std::string no_tests_reason(const Report& report) {
  if (!report.loads_observed) return "not measured in this run: " + report.loads_unobserved;
  return "not measured: no load of this run carries a test (the command ran no pytest or unittest suite the "
         "instrumentation saw, or the report predates schema 11)";
}

// The worst test against a per-test ceiling: `value` reads a charge as builds or seconds.
template <typename Value>
BudgetOutcome per_test_ceiling(std::string_view budget, double limit, Unit unit, const std::vector<TestCharge>& charges,
                               Value value, bool xdist) {
  BudgetOutcome outcome;
  outcome.budget = std::string(budget);
  outcome.limit = limit;
  outcome.unit = unit;
  double worst = 0.0;
  std::vector<const TestCharge*> over;
  for (const auto& charge : charges) {
    worst = std::max(worst, value(charge));
    if (value(charge) > limit) over.push_back(&charge);
  }
  outcome.measured = worst;
  outcome.verdict = over.empty() ? Verdict::pass : Verdict::fail;
  std::ranges::sort(over, [&](const TestCharge* a, const TestCharge* b) { return value(*a) > value(*b); });
  for (std::size_t i = 0; i < over.size() && i < kListedTests; ++i)
    outcome.offenders.push_back(test_offender(*over[i]));
  outcome.note = fmt::format("the most any one test of {} cost{}", charges.size(),
                             xdist ? "; under xdist a module another test also loaded is charged to no test" : "");
  if (over.size() > kListedTests)
    outcome.note += fmt::format("; {} more test(s) over the limit", over.size() - kListedTests);
  return outcome;
}

// `no_builds_after: collection` (or `import`): every build happens while the suite imports.
// `no_builds_after: <test>`: in each process where that test loaded a module, no other test or
// phase builds after its last load there.
BudgetOutcome no_builds_after(const std::string& after, const Report& report) {
  BudgetOutcome outcome;
  outcome.budget = std::string(key::no_builds_after);
  outcome.unit = Unit::count;
  outcome.limit = 0.0;
  const auto phase = test_phase_from_string(after);
  const bool import_phase = phase == TestPhase::collection || phase == TestPhase::import;
  std::map<int, double> warmed_at;  // pid -> end of the named test's last load there
  if (!import_phase) {
    for (const auto& event : report.module_events) {
      if (event.pass != Pass::cold || !event.detail || !event.detail->test) continue;
      if (!names_test(event.detail->test->id, after)) continue;
      auto& end = warmed_at[event.detail->pid];
      end = std::max(end, event.detail->end_s);
    }
    if (warmed_at.empty()) {
      outcome.verdict = Verdict::fail;
      outcome.note = fmt::format("{} loaded no module in this run, so nothing can be checked against it", after);
      return outcome;
    }
  }
  std::map<std::string, Offender> late;  // test (or phase) -> its builds after the warm-up
  int count = 0;
  for (const ModuleEvent* event : cold_compiled_events(report)) {
    if (!event->detail || !event->detail->test) continue;
    const auto& test = *event->detail->test;
    bool violates = false;
    if (import_phase) {
      violates = test.phase != TestPhase::collection && test.phase != TestPhase::import;
    } else if (const auto found = warmed_at.find(event->detail->pid); found != warmed_at.end()) {
      violates = !names_test(test.id, after) && event->detail->start_s >= found->second;
    }
    if (!violates) continue;
    ++count;
    Offender& offender = late[is_test(test) ? test.id : to_string(test.phase)];
    offender.test = is_test(test) ? test.id : to_string(test.phase);
    offender.detail += (offender.detail.empty() ? "built " : ", ") + event->name;
  }
  outcome.measured = count;
  outcome.verdict = count == 0 ? Verdict::pass : Verdict::fail;
  for (auto& [test, offender] : late) outcome.offenders.push_back(std::move(offender));
  outcome.note = import_phase ? "builds outside the suite's collection and import"
                              : fmt::format("builds after {}'s last load, in the {} process(es) where it ran", after,
                                            warmed_at.size());
  return outcome;
}

}  // namespace

std::vector<BudgetOutcome> test_budget_outcomes(const Settings& budgets, const Report& report) {
  std::vector<BudgetOutcome> outcomes;
  if (!budgets.max_test_builds && !budgets.max_test_cold_seconds && !budgets.no_builds_after) return outcomes;
  if (!report.loads_observed || !has_test_context(report)) {
    const std::string why = no_tests_reason(report);
    if (budgets.max_test_builds)
      outcomes.push_back(
          unmeasured(key::max_test_builds, static_cast<double>(*budgets.max_test_builds), Unit::count, why));
    if (budgets.max_test_cold_seconds)
      outcomes.push_back(unmeasured(key::max_test_cold_seconds, *budgets.max_test_cold_seconds, Unit::seconds, why));
    if (budgets.no_builds_after) outcomes.push_back(unmeasured(key::no_builds_after, 0.0, Unit::count, why));
    return outcomes;
  }
  const auto charges = test_charges(report);
  const bool xdist = under_xdist(report);
  if (budgets.max_test_builds) {
    outcomes.push_back(per_test_ceiling(
        key::max_test_builds, static_cast<double>(*budgets.max_test_builds), Unit::count, charges,
        [](const TestCharge& charge) { return double(charge.builds); }, xdist));
  }
  if (budgets.max_test_cold_seconds) {
    outcomes.push_back(per_test_ceiling(
        key::max_test_cold_seconds, *budgets.max_test_cold_seconds, Unit::seconds, charges,
        [](const TestCharge& charge) { return charge.ms / 1000.0; }, xdist));
  }
  if (budgets.no_builds_after) outcomes.push_back(no_builds_after(*budgets.no_builds_after, report));
  return outcomes;
}

}  // namespace wcp::budget
