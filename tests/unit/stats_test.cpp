#include "stats/summary.h"

#include <gtest/gtest.h>

namespace wcp {
namespace {

TEST(Stats, MedianOddAndEven) {
  EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_THROW(median({}), std::invalid_argument);
  EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
}

TEST(Stats, MadOddAndEven) {
  // deviations from 2: 1, 0, 1, 98 -> sorted 0 1 1 98 -> median 1
  EXPECT_DOUBLE_EQ(median_absolute_deviation({1.0, 2.0, 3.0, 100.0}), 1.0);
  // median 2.0 of {1,2,4}; deviations 1,0,2 -> median 1
  EXPECT_DOUBLE_EQ(median_absolute_deviation({1.0, 2.0, 4.0}), 1.0);
  EXPECT_DOUBLE_EQ(median_absolute_deviation({5.0, 5.0}), 0.0);
}

TEST(Stats, SummaryKeepsValuesInOrder) {
  const auto summary = summarize({30.0, 10.0, 20.0});
  ASSERT_TRUE(summary);
  EXPECT_EQ(summary->values, (std::vector<double>{30.0, 10.0, 20.0}));
  EXPECT_DOUBLE_EQ(summary->median, 20.0);
  EXPECT_DOUBLE_EQ(*summary->mad, 10.0);
  EXPECT_EQ(summary->count, 3u);
}

TEST(Stats, NothingMeasuredIsNoSummary) {
  EXPECT_FALSE(summarize({}).has_value());
}

TEST(Stats, NoiseBand) {
  EXPECT_DOUBLE_EQ(noise_band(*summarize({1000.0})), 10.0);                  // 1 % of the median
  EXPECT_DOUBLE_EQ(noise_band(*summarize({900.0, 1000.0, 1100.0})), 200.0);  // 2 × MAD
  EXPECT_DOUBLE_EQ(noise_band(*summarize({1000.0}), 5.0), 50.0);             // a tolerance widens it
  Summary no_mad{1000.0, std::nullopt, {}, 3};
  EXPECT_DOUBLE_EQ(noise_band(no_mad), 10.0);
}

}  // namespace
}  // namespace wcp
