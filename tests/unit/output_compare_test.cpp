// The output comparison (run/output_masks.h, run/output_digest.h): what it masks, and that it
// notices one extra line, one changed line and a changed end, in bounded memory.
#include <gtest/gtest.h>

#include <string>

#include "errors.h"
#include "model/output_check.h"
#include "run/output_digest.h"
#include "run/output_masks.h"

namespace wcp {
namespace {

OutputDigest digest_of(std::string_view text, const OutputMasks& masks = {}) {
  OutputDigest digest(masks);
  digest.feed(text);
  digest.finish();
  return digest;
}

TEST(OutputMasks, MasksDurationsAProgramPrints) {
  EXPECT_EQ(mask_durations("Module __main__ 1ad6ff6 load on device 'cpu' took 6249.30 ms  (compiled)"),
            "Module __main__ 1ad6ff6 load on device 'cpu' took <duration>  (compiled)");
  EXPECT_EQ(mask_durations("25 passed, 29 deselected in 56.06s"), "25 passed, 29 deselected in <duration>");
  EXPECT_EQ(mask_durations("step 3: 1.5e-3 s, then 12 us and 7\xc2\xb5s"),
            "step 3: <duration>, then <duration> and <duration>");
  EXPECT_EQ(mask_durations("ran for 2 minutes"), "ran for <duration>");
  // pytest adds the clock only past a minute: with and without it, the line is the same.
  EXPECT_EQ(mask_durations("25 passed, 29 deselected in 149.17s (0:02:29)"), "25 passed, 29 deselected in <duration>");
  EXPECT_EQ(mask_durations("done in 3s (see log)"), "done in <duration> (see log)");
}

TEST(OutputMasks, LeavesNumbersThatAreNoDurations) {
  // A count, a version, a hash ending in digits and a unit glued to a word stay as they are.
  EXPECT_EQ(mask_durations("25 passed"), "25 passed");
  EXPECT_EQ(mask_durations("Warp 1.19.0 initialized"), "Warp 1.19.0 initialized");
  EXPECT_EQ(mask_durations("hash 7933ad1s"), "hash 7933ad1s");
  EXPECT_EQ(mask_durations("10 samples"), "10 samples");
  EXPECT_EQ(mask_durations("result 4096.0"), "result 4096.0");
}

TEST(OutputMasks, ReplacesTheRunsPrivatePathsLongestFirst) {
  OutputMasks masks;
  masks.add_literal("/tmp/wcp-1", "<private scratch>");
  masks.add_literal("/tmp/wcp-1/warp-cache", "<private kernel cache>");
  EXPECT_EQ(mask_line("     /tmp/wcp-1/warp-cache/1.19.0", masks), "     <private kernel cache>/1.19.0");
  EXPECT_EQ(mask_line("events in /tmp/wcp-1/x", masks), "events in <private scratch>/x");
}

TEST(OutputMasks, AnInvalidIgnorePatternIsAUsageError) {
  OutputMasks masks;
  EXPECT_THROW(masks.add_ignored("([unclosed", "--ignore-output"), UsageError);
}

TEST(OutputDigest, TheSameOutputInOtherChunksAndTimingsIsTheSame) {
  const OutputDigest bare = digest_of("Warp ready\nModule m took 12.50 ms  (compiled)\nresult 4\n");
  OutputDigest probe{OutputMasks{}};
  probe.feed("Warp ready\nModule m took 9");
  probe.feed("88.01 ms  (compiled)\nresu");
  probe.feed("lt 4\n");
  probe.finish();
  EXPECT_EQ(bare.lines(), 3u);
  EXPECT_FALSE(first_difference(bare, probe).has_value());
}

TEST(OutputDigest, OneExtraLineIsADifference) {
  const OutputDigest bare = digest_of("a\nb\nc\n");
  const OutputDigest probe = digest_of("a\n[Kernel.add_overload] Creating new overload\nb\nc\n");
  const auto difference = first_difference(bare, probe);
  ASSERT_TRUE(difference.has_value());
  EXPECT_EQ(difference->line, 2u);
  EXPECT_EQ(difference->expected, "b");
  EXPECT_EQ(difference->actual, "[Kernel.add_overload] Creating new overload");
}

TEST(OutputDigest, AnExtraLastLineSaysTheOtherSideEnded) {
  const auto difference = first_difference(digest_of("a\nb\n"), digest_of("a\nb\nextra\n"));
  ASSERT_TRUE(difference.has_value());
  EXPECT_EQ(difference->line, 3u);
  EXPECT_TRUE(difference->expected_ended);
  EXPECT_FALSE(difference->actual_ended);
  EXPECT_EQ(difference->actual, "extra");
}

TEST(OutputDigest, ALastLineWithoutNewlineCounts) {
  EXPECT_TRUE(first_difference(digest_of("a\nb"), digest_of("a\n")).has_value());
  EXPECT_FALSE(first_difference(digest_of("a\nb"), digest_of("a\nb\n")).has_value());
}

TEST(OutputDigest, IgnoredLinesAreLeftOutOnBothSides) {
  OutputMasks masks;
  masks.add_ignored("^seed=", "--ignore-output");
  const OutputDigest a = digest_of("seed=1\nresult 4\n", masks);
  const OutputDigest b = digest_of("seed=2\nresult 4\n", masks);
  EXPECT_FALSE(first_difference(a, b).has_value());
  EXPECT_EQ(a.ignored(), 1u);
  EXPECT_EQ(a.lines(), 1u);
}

TEST(OutputDigest, ADifferencePastTheKeptLinesIsStillFound) {
  std::string common;
  for (std::size_t i = 0; i < OutputDigest::kKeptLines + 10; ++i) common += "line " + std::to_string(i) + "\n";
  const auto difference = first_difference(digest_of(common + "end\n"), digest_of(common + "other end\n"));
  ASSERT_TRUE(difference.has_value());
  EXPECT_EQ(difference->line, OutputDigest::kKeptLines + 1);
  EXPECT_FALSE(difference->expected.has_value());  // not kept: the report says so
}

TEST(OutputDigest, AnOverlongLineIsComparedButNotKeptWhole) {
  const std::string flood(3 * OutputDigest::kLongestLine, 'x');
  OutputDigest a{OutputMasks{}};
  for (int i = 0; i < 3; ++i) a.feed(std::string_view(flood).substr(0, OutputDigest::kLongestLine));
  a.feed("\n");
  a.finish();
  EXPECT_FALSE(first_difference(a, digest_of(flood + "\n")).has_value());
  EXPECT_TRUE(first_difference(a, digest_of(flood + "y\n")).has_value());
  EXPECT_LT(a.kept().front().size(), 200u);
}

TEST(OutputDigest, TheSameLinesInAnotherOrderAreMarkedReordered) {
  const auto difference =
      first_difference(digest_of("worker 1\nworker 2\nresult\n"), digest_of("worker 2\nworker 1\nresult\n"));
  ASSERT_TRUE(difference.has_value());
  EXPECT_TRUE(difference->reordered);
  EXPECT_EQ(difference->line, 1u);
}

TEST(OutputDigest, AnotherLineIsNotAReorderingEvenWithTheSameCount) {
  const auto difference = first_difference(digest_of("a\nb\n"), digest_of("b\nc\n"));
  ASSERT_TRUE(difference.has_value());
  EXPECT_FALSE(difference->reordered);
  // A line printed twice instead of once keeps neither the multiset nor the sequence.
  EXPECT_FALSE(first_difference(digest_of("a\nb\n"), digest_of("a\na\n"))->reordered);
}

TEST(PassOutputCheck, AnotherOrderIsTheSameOnlyWhereSeveralWritersRanAtOnce) {
  PassOutputCheck pass;
  pass.stdout_difference = first_difference(digest_of("x\ny\n"), digest_of("y\nx\n"));
  EXPECT_FALSE(pass.same()) << "writers unknown (no instrumentation): another order is a difference";
  pass.writers = ConcurrentWriters{};
  EXPECT_FALSE(pass.same()) << "one process, one loading thread: another order is a difference";
  pass.writers = ConcurrentWriters{.processes = 3};
  EXPECT_TRUE(pass.same());
  pass.writers = {.processes = 1, .load_threads = 2};
  EXPECT_TRUE(pass.same());
  pass.stderr_difference = first_difference(digest_of("x\n"), digest_of("z\n"));
  EXPECT_FALSE(pass.same()) << "a changed line is a difference whatever ran at once";
  pass.stderr_difference.reset();
  pass.probe_exit_code = 1;
  EXPECT_FALSE(pass.same());
}

}  // namespace
}  // namespace wcp
