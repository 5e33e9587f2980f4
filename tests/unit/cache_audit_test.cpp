// The warm-cache audit's set arithmetic (measure/cache_audit.h, model/cache_audit.h) on crafted
// listings and loads, its listing of a real folder tree and its copy, and the budget on it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "budget/evaluate.h"
#include "codec/cache_audit_json.h"
#include "errors.h"
#include "measure/cache_audit.h"
#include "measure/cache_copy.h"
#include "measure/cache_listing.h"
#include "render/cache_audit_text.h"
#include "report_fixtures.h"

namespace wcp::measure {
namespace {

namespace fs = std::filesystem;

CacheEntry entry(std::string group, std::string name, std::uint64_t bytes, std::uint64_t files = 2) {
  const bool hashless = !has_hash_suffix(name);
  return {std::move(group), std::move(name), bytes, files, hashless};
}

ModuleEvent load(std::string name, std::string hash, LoadStatus status) {
  ModuleEvent event;
  event.name = std::move(name);
  event.hash = std::move(hash);
  event.device = "cpu";
  event.status = status;
  return event;
}

// DIR: two entries of this Warp's folder, one of another version, one at the top level.
CacheListing dir_listing() {
  CacheListing listing;
  listing.entries = {entry("", "wp_old_1111111", 500), entry("1.18.0", "wp_a_aaaaaaa", 7000),
                     entry("1.19.0", "wp_a_aaaaaaa", 1000), entry("1.19.0", "wp_b_bbbbbbb", 3000),
                     entry("1.19.0", "wp_s", 40)};
  listing.others = {{"1.19.0/lto", 90}};
  return listing;
}

TEST(CacheAudit, ReadWrittenAndUnusedAreTheSetsTheLoadsAndFilesSay) {
  CacheListing after = dir_listing();
  after.entries.push_back(entry("1.19.0", "wp_c_ccccccc", 200));  // built by the pass
  after.entries[3].bytes = 3500;                                  // b: a new variant written into it
  after.entries[3].files = 3;
  CacheAudit audit;
  audit.pass_ok = true;
  audit.loads_observed = true;
  classify_entries(audit, dir_listing(), after,
                   {load("a", "aaaaaaa", LoadStatus::cached), load("b", "bbbbbbb", LoadStatus::compiled),
                    load("c", "ccccccc", LoadStatus::compiled), load("s", "", LoadStatus::cached),
                    load("a", "aaaaaaa", LoadStatus::cached)},
                   "1.19.0");
  const auto totals = totals_of(audit);
  EXPECT_EQ(totals.dir_entries, 5u);
  EXPECT_EQ(totals.dir_bytes, 11540u);
  EXPECT_EQ(totals.used_entries, 3u);  // a (read), b (written), s (read, no hash)
  EXPECT_EQ(totals.used_bytes, 4040u);
  EXPECT_EQ(totals.unused_entries, 2u);  // the other version's a and the top level's old
  EXPECT_EQ(totals.unused_bytes, 7500u);
  EXPECT_EQ(totals.needed_entries, 4u);  // and c, which DIR did not have
  EXPECT_EQ(totals.needed_bytes, 1000u + 3500u + 40u + 200u);
  EXPECT_EQ(totals.hashless_used, 1u);
  EXPECT_EQ(totals.not_audited_bytes, 90u);

  const auto unused = unused_entries(audit);
  ASSERT_EQ(unused.size(), 2u);
  EXPECT_EQ(unused[0].group, "1.18.0");  // largest first
  EXPECT_EQ(unused[1].name, "wp_old_1111111");
  const auto groups = unused_by_group(audit);
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0].group, "1.18.0");
  EXPECT_EQ(groups[0].bytes, 7000u);

  ASSERT_EQ(audit.modules.size(), 4u);  // one per identity: the second load of a is the same
  EXPECT_EQ(audit.modules[0].served, ServedBy::dir);
  EXPECT_EQ(audit.modules[1].served, ServedBy::compiled);
  EXPECT_EQ(audit.modules[2].served, ServedBy::compiled);
  EXPECT_EQ(audit.modules[3].served, ServedBy::dir);
  EXPECT_TRUE(audit.modules[3].hashless);
}

TEST(CacheAudit, ACachedLoadOfAnEntryDirLackedWasNotServedByDir) {
  CacheListing after = dir_listing();
  after.entries.push_back(entry("1.19.0", "wp_c_ccccccc", 200));
  CacheAudit audit;
  // Another process of the pass built c, then this one found it cached.
  classify_entries(audit, dir_listing(), after, {load("c", "ccccccc", LoadStatus::cached)}, "1.19.0");
  ASSERT_EQ(audit.modules.size(), 1u);
  EXPECT_EQ(audit.modules[0].served, ServedBy::compiled);
  EXPECT_EQ(totals_of(audit).used_entries, 0u);
  EXPECT_EQ(totals_of(audit).needed_entries, 1u);
}

TEST(CacheAudit, TheVerboseTextCountsOneEntryInTheSingular) {
  // A one-module program's audit: DIR holds one entry, the pass needed it, the 1.18.0 one is unused.
  CacheListing dir;
  dir.entries = {entry("1.19.0", "wp_a_aaaaaaa", 1000), entry("1.18.0", "wp_a_aaaaaaa", 7000)};
  CacheAudit audit;
  audit.pass_ok = true;
  audit.loads_observed = true;
  classify_entries(audit, dir, dir, {load("a", "aaaaaaa", LoadStatus::cached)}, "1.19.0");
  std::ostringstream text;
  render::render_cache_audit_text(audit, text);
  EXPECT_NE(text.str().find("Used 1 of 2 entries"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("needed (read + written) 1 entry,"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("1.18.0         1 entry,"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("1 entries"), std::string::npos) << text.str();
}

TEST(CacheAudit, ALoadInAnotherGroupDoesNotUseThisOne) {
  CacheAudit audit;
  // Warp 1.9.1 reads the top level: 1.19.0's a stays unused.
  classify_entries(audit, dir_listing(), dir_listing(), {load("old", "1111111", LoadStatus::cached)}, "");
  EXPECT_EQ(totals_of(audit).used_entries, 1u);
  EXPECT_EQ(totals_of(audit).used_bytes, 500u);
  EXPECT_EQ(totals_of(audit).unused_entries, 4u);
}

TEST(CacheAudit, HashSuffix) {
  EXPECT_TRUE(has_hash_suffix("wp___main___b43a5cc"));
  EXPECT_FALSE(has_hash_suffix("wp_mymodule"));
  EXPECT_FALSE(has_hash_suffix("wp_my_module"));
  EXPECT_FALSE(has_hash_suffix("wp_x_B43A5CC"));
}

class CacheTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("wcp-cache-audit-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const fs::path& relative, std::size_t bytes) {
    fs::create_directories((root_ / "dir" / relative).parent_path());
    std::ofstream(root_ / "dir" / relative) << std::string(bytes, 'x');
  }
  fs::path root_;
};

TEST_F(CacheTreeTest, ListsBothLayoutsAndCopiesByteForByte) {
  write("wp_top_1234567/wp_top_1234567.o", 100);
  write("wp_top_1234567/wp_top_1234567.meta", 10);
  write("1.19.0/wp___main___abcdef0/a.cpp", 300);
  write("1.19.0/wp___main___abcdef0/sub/b.o", 30);
  write("1.19.0/lto/x.lto", 7);
  write("stray.txt", 5);
  const auto listing = list_cache(root_ / "dir");
  ASSERT_EQ(listing.entries.size(), 2u);
  EXPECT_EQ(listing.entries[0].group, "");
  EXPECT_EQ(listing.entries[0].bytes, 110u);
  EXPECT_EQ(listing.entries[1].group, "1.19.0");
  EXPECT_EQ(listing.entries[1].bytes, 330u);
  EXPECT_EQ(listing.entries[1].files, 2u);
  ASSERT_EQ(listing.others.size(), 2u);
  EXPECT_EQ(listing.others[0].path, "1.19.0/lto");
  EXPECT_EQ(listing.others[0].bytes, 7u);

  const auto cost = copy_cache_tree(root_ / "dir", root_ / "copy");
  EXPECT_EQ(cost.files, 6u);
  EXPECT_EQ(cost.bytes, 452u);
  EXPECT_FALSE(cost.strategy.empty());
  const auto copied = list_cache(root_ / "copy");
  EXPECT_EQ(copied.entries, listing.entries);
  std::ifstream copy_file(root_ / "copy" / "1.19.0" / "wp___main___abcdef0" / "sub" / "b.o");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(copy_file), {}), std::string(30, 'x'));
  EXPECT_THROW(copy_cache_tree(root_ / "dir", root_ / "copy"), RunError);  // never over an existing folder
}

TEST(CacheAudit, JsonRoundTripsAndHasNoTotalsWhenNotMeasured) {
  CacheAudit audit;
  audit.dir = "/c";
  audit.pass_ok = true;
  audit.loads_observed = true;
  classify_entries(audit, dir_listing(), dir_listing(), {load("a", "aaaaaaa", LoadStatus::cached)}, "1.19.0");
  audit.prune_list = "/p.txt";
  const auto json = cache_audit_to_json(audit);
  EXPECT_EQ(json.at("totals").at("used_entries"), 1);
  EXPECT_EQ(cache_audit_from_json(json), audit);
  audit.loads_observed = false;
  EXPECT_TRUE(cache_audit_to_json(audit).at("totals").is_null());
}

TEST(CacheAudit, BudgetOnNeededBytesIsNotAPassWhenUnmeasured) {
  budget::CommandEntry command;
  command.name = "app";
  command.budgets.max_cache_bytes = 5000;
  Report report = testing::clean_report();
  const auto verdict_of = [&](const Report& r) {
    for (const auto& outcome : budget::evaluate(command, r, std::nullopt).outcomes) {
      if (outcome.budget == "max_cache_bytes") return outcome;
    }
    throw std::runtime_error("no max_cache_bytes outcome");
  };
  report.cache.total_bytes.reset();  // a report before schema 7: missing is not zero
  EXPECT_EQ(verdict_of(report).verdict, budget::Verdict::fail);
  EXPECT_FALSE(verdict_of(report).measured);
  report.cache.total_bytes = 4000;
  EXPECT_EQ(verdict_of(report).verdict, budget::Verdict::pass);

  CacheAudit audit;
  audit.pass_ok = true;
  audit.loads_observed = true;
  classify_entries(audit, dir_listing(), dir_listing(),
                   {load("a", "aaaaaaa", LoadStatus::cached), load("b", "bbbbbbb", LoadStatus::cached),
                    load("c", "ccccccc", LoadStatus::compiled)},
                   "1.19.0");
  report.cache_audit = audit;  // needs 4000 bytes of DIR: the audit decides, not the cold cache
  report.cache.total_bytes = 999'999;
  EXPECT_EQ(verdict_of(report).verdict, budget::Verdict::pass);
  report.cache_audit->entries.push_back({entry("1.19.0", "wp_d_ddddddd", 0), false, false, true, 2000});
  EXPECT_EQ(verdict_of(report).verdict, budget::Verdict::fail);
  report.cache_audit->loads_observed = false;
  EXPECT_FALSE(verdict_of(report).measured);
  EXPECT_EQ(verdict_of(report).verdict, budget::Verdict::fail);
}

}  // namespace
}  // namespace wcp::measure
