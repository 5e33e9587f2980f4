// io/name_table.h and the tables built on it: every value has one name, and reading the name
// back gives the value (the writer and the reader of a report share one table).
#include "io/name_table.h"

#include <gtest/gtest.h>

#include <set>

#include "analysis/finding.h"
#include "bisect/bisect_outcome.h"
#include "budget/budget_result.h"
#include "budget/budget_settings.h"
#include "facts/option_receipts.h"
#include "facts/ownership.h"
#include "facts/rebuilds.h"
#include "history/history_result.h"
#include "history/trend.h"
#include "levers/lever_protocol.h"
#include "model/cache_audit.h"
#include "model/cache_miss.h"
#include "model/fix_effect.h"
#include "model/hash_stability.h"
#include "model/module_event.h"
#include "model/option_record.h"
#include "model/process.h"
#include "model/reference.h"
#include "render/bisect_json.h"
#include "render/budget_json.h"
#include "render/format.h"
#include "stats/noise.h"
#include "verdict/identity_changes.h"
#include "verdict/judge.h"
#include "verdict/workload.h"

namespace wcp {
namespace {

enum class Colour { red, green };
constexpr NameTable<Colour, 2> kColours{{{Colour::red, "red"}, {Colour::green, "green"}}};

TEST(NameTable, NamesReadBackAndListWhatIsKnown) {
  static_assert(name_of(kColours, Colour::green) == "green");
  EXPECT_EQ(value_named(kColours, "red"), Colour::red);
  EXPECT_EQ(value_named(kColours, "blue"), std::nullopt);
  EXPECT_EQ(known_names(kColours), "red, green");
}

template <typename Enum, typename ToString, typename FromString>
void expect_round_trip(std::initializer_list<Enum> values, ToString to_text, FromString from_text) {
  std::set<std::string> names;
  for (Enum value : values) {
    const std::string name = to_text(value);
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << name << " names two values";
    EXPECT_EQ(from_text(name), value) << name;
  }
  EXPECT_EQ(from_text("no such name"), std::nullopt);
}

TEST(NameTable, ALoadsWordsRoundTrip) {
  using wcp::to_string;
  expect_round_trip(
      {LoadStatus::compiled, LoadStatus::cached, LoadStatus::error}, [](LoadStatus value) { return to_string(value); },
      load_status_from_string);
  expect_round_trip(
      {LoadTimer::warp, LoadTimer::probe}, [](LoadTimer value) { return to_string(value); }, load_timer_from_string);
  expect_round_trip(
      {ClosureKind::none, ClosureKind::literals, ClosureKind::arguments, ClosureKind::values},
      [](ClosureKind value) { return to_string(value); }, closure_kind_from_string);
  expect_round_trip(
      {TestPhase::collection, TestPhase::import, TestPhase::setup, TestPhase::call, TestPhase::teardown,
       TestPhase::session},
      [](TestPhase value) { return to_string(value); }, test_phase_from_string);
}

TEST(NameTable, OptionProcessAndReferenceWordsRoundTrip) {
  expect_round_trip(
      {OptionApi::set_module_options, OptionApi::module_options, OptionApi::kernel, OptionApi::config},
      [](OptionApi value) { return std::string(to_string(value)); }, option_api_from_string);
  expect_round_trip(
      {ProcessRole::main, ProcessRole::worker, ProcessRole::child},
      [](ProcessRole value) { return std::string(to_string(value)); }, process_role_from_string);
  expect_round_trip(
      {ReferenceKind::warp_cpu, ReferenceKind::nvrtc},
      [](ReferenceKind value) { return std::string(to_string(value)); }, reference_kind_from_string);
  // An option's scope is "" for none: the one name that may be empty.
  EXPECT_EQ(to_string(OptionScope::none), "");
  EXPECT_EQ(option_scope_from_string("module"), OptionScope::module);
  EXPECT_EQ(option_scope_from_string(to_string(OptionScope::kernel)), OptionScope::kernel);
}

TEST(NameTable, CacheAndHashWordsRoundTrip) {
  using wcp::to_string;
  expect_round_trip(
      {MissCause::no_entry, MissCause::kernels_differ, MissCause::options_differ, MissCause::functions_differ,
       MissCause::compiler_only, MissCause::no_device_build, MissCause::unexplained},
      [](MissCause value) { return to_string(value); }, miss_cause_from_string);
  expect_round_trip(
      {ServedBy::dir, ServedBy::compiled, ServedBy::error}, [](ServedBy value) { return to_string(value); },
      served_by_from_string);
  expect_round_trip(
      {HashCause::stable, HashCause::python_hash_seed, HashCause::checkout_path, HashCause::per_run},
      [](HashCause value) { return to_string(value); }, hash_cause_from_string);
}

// Written only (reports and diagnoses carry them; nothing reads them back): each name is its own.
template <typename Enum>
void expect_distinct_names(std::initializer_list<Enum> values) {
  std::set<std::string> names;
  for (Enum value : values) {
    const std::string name(to_string(value));
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << name << " names two values";
  }
}

// The same, for a name written by a function that `to_string` does not find (another name, or
// another namespace than the enum's).
template <typename Enum, typename ToString>
void expect_distinct_names(std::initializer_list<Enum> values, ToString to_text) {
  std::set<std::string> names;
  for (Enum value : values) {
    const std::string name(to_text(value));
    EXPECT_FALSE(name.empty());
    EXPECT_TRUE(names.insert(name).second) << name << " names two values";
  }
}

TEST(NameTable, OwnersAndOptionReceiptWordsAreDistinct) {
  expect_distinct_names({Owner::user, Owner::dependency, Owner::warp, Owner::python});
  expect_distinct_names({ReceiptOutcome::reached, ReceiptOutcome::partly_reached, ReceiptOutcome::reached_nothing,
                         ReceiptOutcome::target_not_built, ReceiptOutcome::no_change,
                         ReceiptOutcome::not_a_module_option});
  expect_distinct_names({MissReason::target_never_loaded, MissReason::kernels_in_unique_modules,
                         MissReason::kernels_in_named_modules, MissReason::set_after_last_load,
                         MissReason::set_after_module_created, MissReason::module_holds_own_value,
                         MissReason::overridden, MissReason::no_build_after, MissReason::value_differs});
}

TEST(NameTable, VerdictWordsAreDistinct) {
  using namespace verdict;
  expect_distinct_names(
      {Verdict::invalid, Verdict::regression, Verdict::improved, Verdict::inconclusive, Verdict::unverified});
  expect_distinct_names({Clock::module_work, Clock::compile_elapsed, Clock::module_cpu});
  expect_distinct_names({Direction::improved, Direction::within_band, Direction::regressed, Direction::unavailable});
  expect_distinct_names({Count::identities, Count::modules, Count::compiled_events, Count::warm_compiles,
                         Count::generated_source_bytes, Count::lto_artifacts});
  expect_distinct_names({WorkloadStatus::equivalent, WorkloadStatus::different, WorkloadStatus::unverified});
  expect_distinct_names({ExplainedAgainst::baseline, ExplainedAgainst::earlier_build});
  expect_distinct_names({ModuleChange::appeared, ModuleChange::disappeared, ModuleChange::changed});
}

TEST(NameTable, BudgetWordsAreDistinct) {
  using budget::Unit;
  using budget::Verdict;
  const std::initializer_list<Verdict> verdicts{Verdict::pass, Verdict::fail, Verdict::improved, Verdict::accepted,
                                                Verdict::not_judged};
  const std::initializer_list<Unit> units{Unit::count, Unit::seconds, Unit::bytes, Unit::units};
  expect_distinct_names(verdicts);
  expect_distinct_names(
      {budget::DeviceRequirement::any, budget::DeviceRequirement::cpu, budget::DeviceRequirement::cuda});
  // `check --json` writes a verdict's and a unit's own words (render/budget_json's tables).
  const auto written = [](Verdict verdict, Unit unit, const char* field) {
    budget::CheckResult check;
    budget::BudgetOutcome& outcome = check.commands.emplace_back().outcomes.emplace_back();
    outcome.verdict = verdict;
    outcome.unit = unit;
    return render::budget_result_to_json(check)["commands"][0]["outcomes"][0][field].get<std::string>();
  };
  expect_distinct_names(verdicts, [&](Verdict verdict) { return written(verdict, Unit::count, "verdict"); });
  expect_distinct_names(units, [&](Unit unit) { return written(Verdict::pass, unit, "unit"); });
}

TEST(NameTable, HistoryWordsAreDistinctAndSourcesRoundTrip) {
  using namespace history;
  expect_distinct_names({ClockMove::none, ClockMove::within, ClockMove::above, ClockMove::below, ClockMove::returned,
                         ClockMove::unconfirmed});
  expect_distinct_names({NoteKind::kernel_code_changed});
  expect_distinct_names({LevelClock::cold_module_ms, LevelClock::cold_units, LevelClock::cold_module_cpu_ms});
  expect_round_trip(
      {Source::measure, Source::check, Source::ab_baseline, Source::ab_candidate, Source::import},
      [](Source value) { return to_string(value); }, source_from_string);
}

TEST(NameTable, BisectWordsRoundTripAndEndingsAreDistinct) {
  expect_round_trip(
      {bisect::StepOutcome::good, bisect::StepOutcome::bad, bisect::StepOutcome::skip, bisect::StepOutcome::abort},
      [](bisect::StepOutcome value) { return std::string(to_string(value)); }, bisect::step_outcome_from);
  // `bisect --json`'s "result" (render/bisect_json's table).
  expect_distinct_names(
      {bisect::BisectEnding::first_bad, bisect::BisectEnding::only_skipped, bisect::BisectEnding::bad_is_not_bad,
       bisect::BisectEnding::good_is_not_good, bisect::BisectEnding::aborted},
      [](bisect::BisectEnding ending) {
        bisect::BisectResult result;
        result.ending = ending;
        return render::bisect_to_json(result)["result"].get<std::string>();
      });
}

TEST(NameTable, DiagnosisLeverAndFormatWordsAreDistinct) {
  expect_distinct_names({NoiseSource::samples, NoiseSource::history, NoiseSource::calibration, NoiseSource::none});
  expect_distinct_names({LeverKind::config, LeverKind::module_option, LeverKind::drop_unique, LeverKind::noop_call},
                        [](LeverKind kind) { return levers::to_string(kind); });
  expect_distinct_names({render::Format::text, render::Format::json, render::Format::markdown, render::Format::html});
  expect_distinct_names(
      {analysis::CauseStatus::confirmed, analysis::CauseStatus::inferred, analysis::CauseStatus::cannot_tell});
  expect_distinct_names({RebuildCause::identity_churn, RebuildCause::block_dim_spread, RebuildCause::both,
                         RebuildCause::same_identity, RebuildCause::several_processes});
  expect_distinct_names({FixEffect::keeps_behaviour, FixEffect::changes_behaviour});
}

}  // namespace
}  // namespace wcp
