// The visits file bisect-step appends to, once per commit, and bisect reads back.
#include "bisect/visit_log.h"

#include <gtest/gtest.h>

#include <fstream>

#include "run/scratch_dir.h"

namespace wcp::bisect {
namespace {

TEST(BisectVisitLog, AppendedVisitsReadBackInOrder) {
  const ScratchDir dir;
  const auto log = dir.path() / "visits";
  EXPECT_TRUE(read_visits(log).empty());  // no file yet: no visits
  append_visit(log, {"aaa", StepOutcome::skip, "app: every sample failed"});
  append_visit(log, {"bbb", StepOutcome::good, "every budget passed"});
  append_visit(log, {"ccc", StepOutcome::bad, "budget failed:\tapp\nmax_modules"});
  const auto visits = read_visits(log);
  ASSERT_EQ(visits.size(), 3u);
  EXPECT_EQ(visits[0].sha, "aaa");
  EXPECT_EQ(visits[0].outcome, StepOutcome::skip);
  EXPECT_EQ(visits[0].reason, "app: every sample failed");
  EXPECT_EQ(visits[1].outcome, StepOutcome::good);
  EXPECT_EQ(visits[2].reason, "budget failed: app max_modules");  // one line, whatever the reason held
}

TEST(BisectVisitLog, MalformedLinesAreLeftOut) {
  const ScratchDir dir;
  const auto log = dir.path() / "visits";
  std::ofstream(log) << "garbage\nddd\tperhaps\twhy\neee\tbad\twhy\n";
  const auto visits = read_visits(log);
  ASSERT_EQ(visits.size(), 1u);
  EXPECT_EQ(visits[0].sha, "eee");
}

}  // namespace
}  // namespace wcp::bisect
