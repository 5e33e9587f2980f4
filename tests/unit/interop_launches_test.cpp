#include "measure/interop_launches.h"

#include <gtest/gtest.h>

#include "codec/report_json.h"
#include "report_fixtures.h"

namespace wcp::measure {
namespace {

bool has_limit_note(const Report& report) {
  for (const auto& note : report.notes) {
    if (note.find("original probe's flat `launches` list is left out") != std::string::npos) return true;
  }
  return false;
}

TEST(InteropLaunches, OneObjectPerLaunchInTheOriginalProbesShape) {
  Report report = testing::clean_report();  // three launches of k
  LaunchSignature reduce = testing::launch_of("reduce_sum", 64);
  reduce.dtypes = {"float32", "", "float32"};  // the middle argument was a Python float
  reduce.block_dim = 128;
  reduce.adjoint = true;
  reduce.entry = "launch_tiled";
  testing::launches(report).append(reduce);
  add_interop_launches(report);

  ASSERT_TRUE(report.interop_launches.has_value());
  ASSERT_EQ(report.interop_launches->size(), 4u);
  const InteropLaunch& first = report.interop_launches->front();
  EXPECT_EQ(first.kernel, "k");
  EXPECT_EQ(first.dim, (std::vector<std::int64_t>{16}));
  EXPECT_FALSE(first.block_dim.has_value()) << "left to Warp: null, as the original probe writes it";
  const InteropLaunch& last = report.interop_launches->back();
  EXPECT_EQ(last.dtypes, (std::vector<std::string>{"float32", "float32"}));
  EXPECT_EQ(last.block_dim, 128);
  EXPECT_TRUE(last.adjoint);
  EXPECT_FALSE(has_limit_note(report));

  const auto document = report_to_json(report);
  ASSERT_TRUE(document.contains("launches"));
  ASSERT_EQ(document["launches"].size(), 4u);
  const auto& written = document["launches"][3];
  for (const char* field : {"kernel", "module", "dim", "device", "dtypes", "block_dim", "adjoint"}) {
    EXPECT_TRUE(written.contains(field)) << field;
  }
  EXPECT_EQ(written.size(), 7u) << "no count, no entry: exactly the original probe's fields";
  EXPECT_TRUE(document["launches"][0]["block_dim"].is_null());
  EXPECT_EQ(document["schema_version"], kReportSchemaVersion);
  // Read back as written; the workload still comes from the launch record.
  const Report back = report_from_json(document, "test");
  EXPECT_EQ(back.interop_launches, report.interop_launches);
  EXPECT_EQ(back.processes, report.processes);
}

TEST(InteropLaunches, LoopsAreListedLaunchByLaunch) {
  Report report;
  auto& record = testing::launches(report);
  record.signatures = {testing::launch_of("a", 8), testing::launch_of("b", 8)};
  SequenceItem loop;
  loop.kind = SequenceItem::Kind::loop;
  loop.count = 3;
  loop.body = {SequenceItem{SequenceItem::Kind::run, 0, 1, {}, {}},
               SequenceItem{SequenceItem::Kind::run, 1, 2, {}, {}}};
  record.sequence = {loop};
  add_interop_launches(report);
  ASSERT_TRUE(report.interop_launches.has_value());
  std::vector<std::string> kernels;
  for (const auto& launch : *report.interop_launches) kernels.push_back(launch.kernel);
  EXPECT_EQ(kernels, (std::vector<std::string>{"a", "b", "b", "a", "b", "b", "a", "b", "b"}));
}

TEST(InteropLaunches, TenThousandLaunchesAreListedOneMoreIsLeftOutWithANote) {
  Report at_limit;
  testing::launches(at_limit).append(testing::launch_of("step", 1024), kInteropLaunchLimit);
  add_interop_launches(at_limit);
  ASSERT_TRUE(at_limit.interop_launches.has_value());
  EXPECT_EQ(at_limit.interop_launches->size(), 10'000u);
  EXPECT_FALSE(has_limit_note(at_limit));

  Report above;
  testing::launches(above).append(testing::launch_of("step", 1024), kInteropLaunchLimit + 1);
  add_interop_launches(above);
  EXPECT_FALSE(above.interop_launches.has_value());
  ASSERT_TRUE(has_limit_note(above));
  EXPECT_NE(above.notes.back().find("10001 launches, more than 10000"), std::string::npos) << above.notes.back();
  EXPECT_FALSE(report_to_json(above).contains("launches"));
}

TEST(InteropLaunches, OnlyTheMainProcessCountsAndAMissingRecordIsNotAnEmptyList) {
  Report report = testing::clean_report();
  ProcessRecord worker;
  worker.role = ProcessRole::worker;
  worker.launches_recorded = true;
  worker.launches.append(testing::launch_of("w", 4), 20'000);  // many, but not the main process's
  report.processes.push_back(worker);
  add_interop_launches(report);
  ASSERT_TRUE(report.interop_launches.has_value());
  EXPECT_EQ(report.interop_launches->size(), 3u);

  Report unrecorded = testing::clean_report();
  unrecorded.processes.front().launches_recorded = false;
  add_interop_launches(unrecorded);
  EXPECT_FALSE(unrecorded.interop_launches.has_value());

  Report no_main;  // the command was a shell that started Python: its process is a child
  ProcessRecord child;
  child.role = ProcessRole::child;
  child.launches_recorded = true;
  no_main.processes.push_back(child);
  add_interop_launches(no_main);
  EXPECT_FALSE(no_main.interop_launches.has_value());
  EXPECT_TRUE(no_main.notes.empty());
}

}  // namespace
}  // namespace wcp::measure
