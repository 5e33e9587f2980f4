// io/name_table.h and the tables built on it: every value has one name, and reading the name
// back gives the value (the writer and the reader of a report share one table).
#include "io/name_table.h"

#include <gtest/gtest.h>

#include <set>

#include "model/module_event.h"

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

}  // namespace
}  // namespace wcp
