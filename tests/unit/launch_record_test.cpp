// The launch record: exact and reversible. Hand-written records of every grammar form, and
// property tests over random nested structures: streaming equals expanding, counts equal
// counting the expansion, JSON round-trips, and workload equivalence on the structured form
// agrees with equivalence on the flat list of the same launches.
#include <gtest/gtest.h>

#include "report_fixtures.h"

#include <random>

#include "codec/launch_record_json.h"
#include "io/json_fields.h"
#include "model/launch_record.h"
#include "model/report.h"
#include "verdict/workload.h"

namespace wcp {
namespace {

using Kind = SequenceItem::Kind;
using nlohmann::json;

LaunchSignature make(const std::string& kernel, std::int64_t dim) {
  return LaunchSignature{kernel, "__main__", {dim}, "cpu", {"float32"}, 0, false, "launch"};
}

LaunchRecord parse(const char* text) {
  return json::parse(text).get<LaunchRecord>();
}

const char* kSignatures = R"("signatures": [{"kernel": "a", "dim": [8], "device": "cpu"},
                                          {"kernel": "b", "dim": [8], "device": "cpu"},
                                          {"kernel": "c", "dim": [8], "device": "cpu"}])";

LaunchRecord with_sequence(const std::string& sequence) {
  return parse(("{" + std::string(kSignatures) + ", \"sequence\": " + sequence + "}").c_str());
}

TEST(LaunchRecord, AppendCollapsesConsecutiveIdenticalLaunches) {
  LaunchRecord record;
  for (int i = 0; i < 1000; ++i) record.append(make("a", 8));
  record.append(make("b", 8));
  record.append(make("a", 8));
  ASSERT_EQ(record.sequence.size(), 3u);
  EXPECT_EQ(record.signatures.size(), 2u);
  EXPECT_EQ(record.sequence[0].count, 1000u);
  EXPECT_EQ(total_launches(record), 1002u);
  EXPECT_EQ(expand(record).size(), 1002u);
}

TEST(LaunchRecord, AnyFieldMakesAnotherSignature) {
  LaunchRecord record;
  auto launch = make("a", 4);
  record.append(launch);
  launch.adjoint = true;
  record.append(launch);
  launch.block_dim = 64;
  record.append(launch);
  launch.dtypes = {"float64"};
  record.append(launch);
  launch.entry = "launch_tiled";
  record.append(launch);
  EXPECT_EQ(record.signatures.size(), 5u);
  record.append(launch, 0);
  EXPECT_EQ(total_launches(record), 5u);
}

TEST(LaunchRecord, EveryGrammarFormExpands) {
  // a, b×3, [c, a]×2, then a varying loop: [a×?, {b}×?, ?] with two fills, the second twice.
  const LaunchRecord record = with_sequence(R"([0, [1, 3], {"loop": [2, 0], "times": 2},
      {"loop": [[0, "?"], {"loop": [1], "times": "?"}, "?"],
       "iterations": [[[2, 1, 2], 1], [[1, 2, [1, 2]], 2]]}])");
  const std::vector<std::uint32_t> expected{0, 1, 1, 1, 2, 0, 2, 0, 0, 0, 1, 2,  // a×2, b×1, c
                                            0, 1, 1, 1, 1,                       // a×1, b×2, b×2
                                            0, 1, 1, 1, 1};
  EXPECT_EQ(expand(record), expected);
  EXPECT_EQ(total_launches(record), expected.size());
  EXPECT_EQ(launches_per_signature(record), (std::vector<std::uint64_t>{7, 12, 3}));
  EXPECT_EQ(check_record(record), std::nullopt);
  EXPECT_EQ(json(record).get<LaunchRecord>(), record);  // writes back the same grammar
}

TEST(LaunchRecord, HolesInsideAnExactLoopOfATemplateReuseTheirValue) {
  // Each outer iteration: {b×?}×2 then a; the hole's value serves both repetitions.
  const LaunchRecord record =
      with_sequence(R"([{"loop": [{"loop": [[1, "?"]], "times": 2}, 0], "iterations": [[[3], 1], [[1], 1]]}])");
  EXPECT_EQ(expand(record), (std::vector<std::uint32_t>{1, 1, 1, 1, 1, 1, 0, 1, 1, 0}));
  EXPECT_EQ(launches_per_signature(record), (std::vector<std::uint64_t>{2, 8, 0}));
}

TEST(LaunchRecord, MalformedRecordsAreRefusedWithThePlace) {
  const auto error_of = [](const std::string& sequence) -> std::string {
    try {
      with_sequence(sequence);
    } catch (const json_fields::FieldError& error) {
      return error.what();
    }
    return "(accepted)";
  };
  EXPECT_NE(error_of(R"([[0, "?"]])").find("outside a loop template"), std::string::npos);
  EXPECT_NE(error_of(R"([7])").find("signature 7 is not in the table of 3"), std::string::npos);
  EXPECT_NE(error_of(R"([[0, 0]])").find("a run's count must be a whole number >= 1"), std::string::npos);
  EXPECT_NE(error_of(R"([{"loop": [[0, "?"]], "iterations": [[[1, 2], 1]]}])")
                .find("2 fill values for a template with 1 holes"),
            std::string::npos);
  EXPECT_NE(error_of(R"([{"loop": [0]}])").find("needs 'times' or 'iterations'"), std::string::npos);
}

// --- properties over random structures -----------------------------------------------------

class RandomRecords {
 public:
  explicit RandomRecords(unsigned seed) : random_(seed) {}

  LaunchRecord record(std::uint32_t signatures) {
    signatures_ = signatures;
    LaunchRecord record;
    for (std::uint32_t i = 0; i < signatures; ++i)
      record.signatures.push_back(make("k" + std::to_string(i), i % 3 + 1));
    const int items = pick(1, 6);
    for (int i = 0; i < items; ++i) record.sequence.push_back(item(3, false));
    return record;
  }

 private:
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(random_); }

  SequenceItem run(std::uint32_t signature, std::uint64_t count) {
    SequenceItem item;
    item.kind = Kind::run;
    item.signature = signature;
    item.count = count;
    return item;
  }

  std::vector<SequenceItem> list(int depth, bool template_, int min_items = 1) {
    std::vector<SequenceItem> items;
    const int count = pick(min_items, 4);
    for (int i = 0; i < count; ++i) items.push_back(item(depth, template_));
    return items;
  }

  SequenceItem item(int depth, bool template_) {
    const int choice = depth <= 0 ? 0 : pick(0, template_ ? 6 : 3);
    const auto signature = static_cast<std::uint32_t>(pick(0, static_cast<int>(signatures_) - 1));
    SequenceItem made;
    switch (choice) {
      case 0:
      case 1:
        return run(signature, static_cast<std::uint64_t>(pick(1, 4)));
      case 2:
        made.kind = Kind::loop;
        made.count = static_cast<std::uint64_t>(pick(2, 4));
        made.body = list(depth - 1, template_);
        return made;
      case 3: {
        made.kind = Kind::varying;
        made.body = list(depth - 1, true);
        const int iterations = pick(1, 3);
        for (int i = 0; i < iterations; ++i) {
          Iteration iteration;
          iteration.repeat = static_cast<std::uint64_t>(pick(1, 3));
          fill_for(made.body, depth - 1, iteration.fill);
          made.iterations.push_back(std::move(iteration));
        }
        return made;
      }
      case 4:
        made.kind = Kind::hole_count;
        made.signature = signature;
        return made;
      case 5:
        made.kind = Kind::hole_times;
        made.body = list(depth - 1, false);
        return made;
      default:
        made.kind = Kind::hole_item;
        return made;
    }
  }

  // One value per hole of `items`, depth first (holes of nested exact loops included).
  void fill_for(const std::vector<SequenceItem>& items, int depth, std::vector<FillValue>& fill) {
    for (const auto& item : items) {
      if (item.kind == Kind::hole_count || item.kind == Kind::hole_times) {
        fill.push_back(FillValue{static_cast<std::uint64_t>(pick(1, 5)), {}});
      } else if (item.kind == Kind::hole_item) {
        fill.push_back(FillValue{0, {this->item(std::max(depth, 1), false)}});
      } else if (item.kind == Kind::loop) {
        fill_for(item.body, depth, fill);
      }
    }
  }

  std::mt19937 random_;
  std::uint32_t signatures_ = 1;
};

LaunchRecord flattened(const LaunchRecord& record) {
  LaunchRecord flat;
  for (auto index : expand(record)) flat.append(record.signatures[index]);
  return flat;
}

// The launches themselves, whatever indices a record gives their signatures.
std::vector<LaunchSignature> launches_of(const LaunchRecord& record) {
  std::vector<LaunchSignature> launches;
  for (auto index : expand(record)) launches.push_back(record.signatures[index]);
  return launches;
}

TEST(LaunchRecordProperties, StreamCountsAndJsonAgreeWithTheExpansion) {
  RandomRecords random(20261130);
  for (int round = 0; round < 400; ++round) {
    const LaunchRecord record = random.record(4);
    ASSERT_EQ(check_record(record), std::nullopt) << json(record).dump();
    const auto launches = expand(record);
    std::vector<std::uint64_t> counted(record.signatures.size(), 0);
    for (auto index : launches) ++counted[index];
    EXPECT_EQ(launches_per_signature(record), counted) << json(record).dump();
    EXPECT_EQ(total_launches(record), launches.size());
    const LaunchRecord back = json(record).get<LaunchRecord>();
    EXPECT_EQ(back, record) << json(record).dump();
    EXPECT_EQ(launches_of(flattened(record)), launches_of(record));
  }
}

Report report_of(LaunchRecord record) {
  Report report;
  report.instrumentation.attached = true;
  testing::main_record(report).launches_recorded = true;
  testing::launches(report) = std::move(record);
  return report;
}

TEST(LaunchRecordProperties, EquivalenceOnTheStructureAgreesWithTheFlatList) {
  RandomRecords random(7);
  int different = 0;
  for (int round = 0; round < 300; ++round) {
    const LaunchRecord a = random.record(2);
    // Half the time compare with a structurally different encoding of the same launches.
    const LaunchRecord b = round % 2 == 0 ? flattened(a) : random.record(2);
    const auto structured = verdict::check_workload(report_of(a), report_of(b));
    const auto flat = verdict::check_workload(report_of(flattened(a)), report_of(flattened(b)));
    EXPECT_EQ(structured.status, flat.status) << json(a).dump() << "\nvs\n" << json(b).dump();
    EXPECT_EQ(structured.first_divergence.has_value(), flat.first_divergence.has_value());
    if (structured.first_divergence && flat.first_divergence) {
      EXPECT_EQ(structured.first_divergence->index, flat.first_divergence->index);
    }
    EXPECT_EQ(structured.count_differences.size(), flat.count_differences.size());
    if (round % 2 == 0) {
      EXPECT_EQ(structured.status, verdict::WorkloadStatus::equivalent);
    }
    different += structured.status == verdict::WorkloadStatus::different ? 1 : 0;
  }
  EXPECT_GT(different, 50);  // the random pairs do exercise divergence
}

TEST(LaunchRecordProperties, AMillionLaunchesStayAFewItems) {
  // What the instrumentation writes for a million launches alternating two kernels.
  const LaunchRecord record = with_sequence(R"([{"loop": [0, 1], "times": 500000}])");
  EXPECT_EQ(total_launches(record), 1'000'000u);
  EXPECT_LT(json(record).dump().size(), 1024u);
  LaunchStream stream(record);
  std::uint64_t runs = 0;
  while (stream.next()) ++runs;
  EXPECT_EQ(runs, 1'000'000u);
}

}  // namespace
}  // namespace wcp
