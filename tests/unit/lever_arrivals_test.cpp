// The probe's `lever` records read back and summed per lever over a pass's processes
// (measure/lever_arrivals.h), and `lever_arrivals` in the report's JSON (schema 7).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "codec/report_json.h"
#include "instrument/instrumentation_events.h"
#include "measure/lever_arrivals.h"

namespace wcp::measure {
namespace {

// Two processes: the main one (set-up records in the WCP_PROBE_LEVERS order, what they reached,
// the tally at exit) and a fork child (reach records only, and killed before its tally).
constexpr const char* kMain = R"({"type":"process","pid":10,"t":1.0}
{"type":"lever","pid":10,"t":1.1,"id":"unroll","kind":"module_option","status":"applied","detail":"set at the creation of every module"}
{"type":"lever","pid":10,"t":1.2,"id":"pch","kind":"config","status":"not_applicable","detail":"this Warp has no warp.config.use_precompiled_headers"}
{"type":"lever","pid":10,"t":1.3,"id":"keep-cache","kind":"noop_call","status":"applied","detail":"calls of warp.clear_kernel_cache do nothing"}
{"type":"lever","pid":10,"t":1.4,"id":"#3","status":"failed","detail":"malformed lever: unknown kind 'teleport'"}
{"type":"lever","pid":10,"t":2.0,"id":"unroll","kind":"module_option","status":"applied","detail":"","module":"saxpy"}
{"type":"lever","pid":10,"t":2.1,"id":"unroll","kind":"module_option","status":"applied","detail":"","module":"__main__"}
{"type":"lever","pid":10,"t":2.2,"id":"keep-cache","kind":"noop_call","status":"applied","detail":"","call":"clear_kernel_cache"}
{"type":"lever","pid":10,"t":3.0,"id":"unroll","kind":"module_option","final":true,"calls":0,"reached":2,"modules":["saxpy_1a2b3c4d","__main__"],"replaced":["__main__"]}
{"type":"lever","pid":10,"t":3.1,"id":"keep-cache","kind":"noop_call","final":true,"calls":250,"reached":250,"modules":[]}
)";
constexpr const char* kChild = R"({"type":"process","pid":11,"t":1.5,"forked_from":10}
{"type":"lever","pid":11,"t":2.5,"id":"keep-cache","kind":"noop_call","status":"applied","detail":"","call":"clear_kernel_cache"}
{"type":"lever","pid":11,"t":2.6,"id":"keep-cache","kind":"noop_call","status":"applied","detail":"","call":"clear_kernel_cache"}
{"type":"lever","pid":11,"t":2.7,"id":"unroll","kind":"module_option","status":"applied","detail":"","module":"worker_module"}
{"type":"lever","pid":11,"t":2.8,"id":"pch","kind":"config","status":"failed","detail":"it raised"}
this line was cut short by a crash {"type":
)";

PassRecord pass_of(std::initializer_list<const char*> files) {
  PassRecord pass;
  for (const char* text : files) {
    pass.instrumentation.processes.push_back(instrument::parse_process_events(text, pass.instrumentation));
  }
  return pass;
}

TEST(LeverArrivals, PerLeverInTheListsOrderOverTheProcesses) {
  const auto arrivals = lever_arrivals_of(pass_of({kMain, kChild}));
  ASSERT_EQ(arrivals.size(), 4u);
  EXPECT_EQ(arrivals[0].id, "unroll");
  EXPECT_EQ(arrivals[0].status, "applied");
  EXPECT_EQ(arrivals[0].detail, "set at the creation of every module");
  // The main process's tally names the unique module as renamed at exit; the child had no tally.
  EXPECT_EQ(arrivals[0].modules_reached, (std::vector<std::string>{"saxpy_1a2b3c4d", "__main__", "worker_module"}));
  EXPECT_EQ(arrivals[0].calls_intercepted, 0);
  EXPECT_EQ(arrivals[0].modules_replaced, std::vector<std::string>{"__main__"});  // its value was gone at exit
  // The worst status wins, with its own reason first.
  EXPECT_EQ(arrivals[1].id, "pch");
  EXPECT_EQ(arrivals[1].status, "failed");
  EXPECT_EQ(arrivals[1].detail, "it raised");
  // 250 calls by the tally past the bounded records, 2 in the child that died before its tally.
  EXPECT_EQ(arrivals[2].id, "keep-cache");
  EXPECT_EQ(arrivals[2].calls_intercepted, 252);
  EXPECT_TRUE(arrivals[2].modules_reached.empty());
  EXPECT_EQ(arrivals[3], (LeverArrival{"#3", "failed", "malformed lever: unknown kind 'teleport'", {}, 0, {}}));
}

TEST(LeverArrivals, NoLeverRecordsNoArrivals) {
  EXPECT_TRUE(lever_arrivals_of(pass_of({R"({"type":"process","pid":10,"t":1.0})"})).empty());
}

TEST(LeverArrivals, ReportJsonCarriesThemAndSchema6ReportsReadWithNone) {
  Report report;
  report.lever_arrivals = {{"unroll", "applied", "set at creation", {"__main__"}, 0, {"__main__"}},
                           {"keep-cache", "applied", "", {}, 3, {}}};
  const auto document = report_to_json(report);
  EXPECT_EQ(document["schema_version"], kReportSchemaVersion);
  ASSERT_EQ(document["lever_arrivals"].size(), 2u);
  EXPECT_EQ(document["lever_arrivals"][1]["calls_intercepted"], 3);
  EXPECT_EQ(document["lever_arrivals"][0]["modules_replaced"], nlohmann::json::array({"__main__"}));
  EXPECT_EQ(report_from_json(document, "x.json").lever_arrivals, report.lever_arrivals);

  // Schema 7 had no modules_replaced: read as none.
  nlohmann::json seven = document;
  seven["schema_version"] = 7;
  for (auto& arrival : seven["lever_arrivals"]) arrival.erase("modules_replaced");
  EXPECT_TRUE(report_from_json(seven, "seven.json").lever_arrivals.front().modules_replaced.empty());

  nlohmann::json older = document;
  older["schema_version"] = 6;
  older.erase("lever_arrivals");
  const Report back = report_from_json(older, "old.json");
  EXPECT_EQ(back.schema_version, 6);
  EXPECT_TRUE(back.lever_arrivals.empty());
}

}  // namespace
}  // namespace wcp::measure
