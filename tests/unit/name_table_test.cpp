// io/name_table.h and the tables built on it: every value has one name, and reading the name
// back gives the value (the writer and the reader of a report share one table).
#include "io/name_table.h"

#include <gtest/gtest.h>

#include <set>

#include "facts/option_receipts.h"
#include "facts/ownership.h"
#include "model/cache_audit.h"
#include "model/cache_miss.h"
#include "model/hash_stability.h"
#include "model/module_event.h"
#include "model/option_record.h"
#include "model/process.h"
#include "model/reference.h"

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

}  // namespace
}  // namespace wcp
