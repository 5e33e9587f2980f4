// The progress line's ETA counts every pass the run planned, extra phases included, so it is
// never negative; a pass nobody planned has an unknown ETA rather than a made-up one.
#include "render/progress_line.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace wcp::render {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Runs `passes` passes of 1 s each after planning `planned`, and returns the lines printed.
std::vector<std::string> run(int planned, int passes) {
  std::ostringstream out;
  ProgressLine line(out, /*interactive=*/false);
  line.plan(planned);
  for (int pass = 1; pass <= passes; ++pass) {
    line.pass_started(pass, passes, Pass::cold);
    line.pass_finished(pass, passes, Pass::cold, 1000.0, true);
  }
  line.done();
  return lines_of(out.str());
}

TEST(ProgressLine, EtaCountsEveryPlannedPassIncludingExtraPhases) {
  // Three samples (six passes), then four hash experiments and a --warm-cache pass, all planned:
  // the old formula (2 × samples − finished) went negative from the seventh pass on.
  const auto lines = run(11, 11);
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_NE(lines[0].find("ETA unknown"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("ETA ~10 s"), std::string::npos) << lines[1];
  EXPECT_NE(lines[7].find("ETA ~4 s"), std::string::npos) << lines[7];
  EXPECT_NE(lines[10].find("ETA ~1 s"), std::string::npos) << lines[10];
  for (const auto& text : lines) EXPECT_EQ(text.find("ETA ~-"), std::string::npos) << text;
}

TEST(ProgressLine, AnUnplannedPassHasNoEstimate) {
  const auto lines = run(2, 3);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[1].find("ETA ~1 s"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("ETA unknown"), std::string::npos) << lines[2];
}

TEST(ProgressLine, AWarmRunThatWillNotHappenLeavesThePlan) {
  std::ostringstream out;
  ProgressLine line(out, /*interactive=*/false);
  line.plan(4);  // two samples
  line.pass_started(1, 2, Pass::cold);
  line.pass_finished(1, 2, Pass::cold, 2000.0, false);
  line.plan(-1);  // its cold run failed: no warm run
  line.pass_started(2, 2, Pass::cold);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find("ETA ~4 s"), std::string::npos) << lines[1];  // two passes left, 2 s each
}

// Issue 50: before any pass finished, an earlier run's pass gives the first estimate, naming
// where it came from; the run's own passes replace it as soon as one finishes.
TEST(ProgressLine, TheFirstEstimateComesFromAnEarlierRun) {
  std::ostringstream out;
  ProgressLine line(out, /*interactive=*/false);
  line.plan(4);
  line.expect(3000.0, "the history");
  line.pass_started(1, 2, Pass::cold);
  line.pass_finished(1, 2, Pass::cold, 1000.0, true);
  line.pass_started(1, 2, Pass::warm);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("ETA ~12 s (from the history)"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("ETA ~3 s"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[1].find("from"), std::string::npos) << lines[1];
}

// On a terminal the line is redrawn inside a pass (each redraw starts with "\r"), its time in
// the pass growing; in a log it stays one line per pass, and nothing is drawn between passes.
TEST(ProgressLine, ATerminalLineTicksInsideAPassAndALogDoesNot) {
  std::ostringstream terminal;
  {
    ProgressLine line(terminal, /*interactive=*/true, std::chrono::milliseconds(10));
    line.plan(2);
    line.pass_started(1, 1, Pass::cold);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    line.pass_finished(1, 1, Pass::cold, 300.0, true);
    line.done();
  }
  const std::string drawn = terminal.str();
  const auto redraws = std::count(drawn.begin(), drawn.end(), '\r');
  EXPECT_GE(redraws, 4) << drawn;  // the first draw, at least two ticks, and done()'s clearing
  EXPECT_NE(drawn.find("sample 1/1 cold  0.0 s"), std::string::npos) << drawn;
  EXPECT_TRUE(std::regex_search(drawn, std::regex(R"(sample 1/1 cold  0\.[1-3] s)"))) << drawn;

  std::ostringstream log;
  {
    ProgressLine line(log, /*interactive=*/false, std::chrono::milliseconds(10));
    line.plan(2);
    line.pass_started(1, 1, Pass::cold);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    line.pass_finished(1, 1, Pass::cold, 100.0, true);
    line.done();
  }
  EXPECT_EQ(lines_of(log.str()).size(), 1u) << log.str();
}

}  // namespace
}  // namespace wcp::render
