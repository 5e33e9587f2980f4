#include "io/units.h"

#include <gtest/gtest.h>

#include "stats/paired.h"

namespace wcp {
namespace {

// The three roundings print what analysis/, render/ and verdict/ printed before they met here.
TEST(Units, MillisecondRoundings) {
  EXPECT_EQ(milliseconds_text(4.24), "4.2 ms");
  EXPECT_EQ(milliseconds_text(42.4), "42 ms");
  EXPECT_EQ(milliseconds_text(12340.0), "12.3 s");
  EXPECT_EQ(whole_milliseconds_text(4.24), "4 ms");
  EXPECT_EQ(whole_milliseconds_text(12340.0), "12.3 s");
  EXPECT_EQ(tenths_milliseconds_text(12345.0), "12345.0 ms");
}

TEST(Units, Bytes) {
  EXPECT_EQ(bytes_text(512), "512 B");
  EXPECT_EQ(bytes_text(1536), "1.5 KiB");
  EXPECT_EQ(bytes_text(2 * 1024 * 1024), "2.0 MiB");
}

TEST(Paired, DifferencesCountEachDirection) {
  const PairedDifferences differences = paired_differences({{10.0, 8.0}, {10.0, 12.0}, {10.0, 10.0}, {10.0, 7.0}});
  EXPECT_EQ(differences.pairs, 4u);
  EXPECT_EQ(differences.faster, 2);
  EXPECT_EQ(differences.slower, 1);
  EXPECT_EQ(differences.equal, 1);
  EXPECT_DOUBLE_EQ(differences.median_delta, -1.0);  // of -2, 2, 0, -3
}

}  // namespace
}  // namespace wcp
