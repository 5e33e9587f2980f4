// The measured ledger's outputs (issue 30): every format lays out what the LeverLedger holds,
// the answer first; a value not measured reads "unavailable" (null in JSON), never 0; the JSON
// and the ledger YAML read back to what was written; `report --levers` carries it as a section.
#include <gtest/gtest.h>

#include <sstream>

#include "codec/document_kind.h"
#include "codec/lever_ledger_json.h"
#include "errors.h"
#include "render/format.h"
#include "render/results_markdown.h"
#include "render/results_summary_text.h"
#include "render/wrap.h"
#include "results/ledger_writer.h"
#include "results/lever_tally.h"
#include "results/results_report.h"

namespace wcp {
namespace {

LeverClock clock(std::optional<double> before, std::optional<double> after, std::optional<double> delta,
                 std::optional<double> band, std::string verdict) {
  LeverClock clock;
  clock.before_ms = before;
  clock.after_ms = after;
  clock.delta_ms = delta;
  clock.band_ms = band;
  clock.verdict = std::move(verdict);
  clock.detail = clock.verdict.empty() ? "" : "judged on 3 pairs";
  return clock;
}

LeverOutcome outcome(std::string id, LeverKind kind, std::string name, std::string value, LeverStatus status) {
  LeverOutcome outcome;
  outcome.lever.id = std::move(id);
  outcome.lever.kind = kind;
  outcome.lever.name = std::move(name);
  outcome.lever.value_json = std::move(value);
  outcome.status = status;
  outcome.judged_on = "cold module work";
  return outcome;
}

// One lever of every status, and a measured lever whose lever arm's module work is missing.
LeverLedger sample_ledger() {
  LeverLedger ledger;
  ledger.command = {"python", "app.py"};
  ledger.cwd = "/work/app";
  ledger.warp_version = "1.19.0";
  ledger.device = "cpu";
  ledger.pairs = 3;
  ledger.baseline_source = "measured";
  ledger.runs_planned = 18;
  ledger.wall_s = 82.4;

  auto backward = outcome("backward-off", LeverKind::config, "enable_backward", "false", LeverStatus::measured);
  backward.scope = "every module created after `import warp`";
  backward.owner = "the whole program";
  backward.arrival = "the hashes of 3 target modules moved";
  backward.cold_module = clock(1234.5, 1114.5, -120.0, 8.0, "IMPROVED");
  backward.compile_elapsed = clock(2000.0, 1950.0, -50.0, 60.0, "INCONCLUSIVE");
  backward.behaviour = "gradients";
  backward.workload = LeverWorkload::same;
  backward.predicted_saving_ms = 100.0;
  backward.prediction_estimated = true;
  backward.take_it = "app.py:3: wp.config.enable_backward = False, right after `import warp`";
  backward.lever.mechanism = Mechanism::unused_backward;

  auto lineinfo = outcome("lineinfo-off", LeverKind::config, "lineinfo", "false", LeverStatus::measured);
  lineinfo.arrival = "the hashes of 3 target modules moved";
  lineinfo.cold_module = clock(1234.5, 1231.4, -3.1, 9.0, "INCONCLUSIVE");
  lineinfo.compile_elapsed = clock(2000.0, 2004.0, 4.0, 60.0, "INCONCLUSIVE");
  lineinfo.behaviour = "nothing";
  lineinfo.workload = LeverWorkload::same;

  auto fem = outcome("backward-off:wp_fem_integrand", LeverKind::module_option, "enable_backward", "false",
                     LeverStatus::needed_by_program);
  fem.lever.modules = {"wp_fem_integrand"};
  fem.reason = "the program failed: exit status 1";
  fem.owner = "Warp's (warp.fem)";
  fem.workload = LeverWorkload::program_failed;
  fem.behaviour = "gradients";
  fem.behaviour_evidence = {"exit status 1 (baseline 0)", "stdout line 3: \"grad 0.5\" became \"grad 0.0\""};

  auto cache =
      outcome("keep-kernel-cache", LeverKind::noop_call, "clear_kernel_cache", "", LeverStatus::did_not_arrive);
  cache.reason = "no call of wp.clear_kernel_cache was intercepted";
  cache.workload = LeverWorkload::same;

  auto workers =
      outcome("max-workers-4", LeverKind::config, "load_module_max_workers", "4", LeverStatus::not_applicable);
  workers.lever.cuda_only = true;
  workers.reason = "CUDA only, and this run loads modules on the CPU";
  workers.judged_on = "compile elapsed";

  auto pch = outcome("pch-off", LeverKind::config, "use_precompiled_headers", "false", LeverStatus::skipped);
  pch.reason = "left out by --skip";

  // Measured, but its lever arm's module work was not: no saving, no verdict, never 0.
  auto release = outcome("release-mode", LeverKind::module_option, "mode", "\"release\"", LeverStatus::measured);
  release.lever.modules = {"*"};
  release.arrival = "the hashes of 2 target modules moved";
  release.cold_module = clock(1234.5, std::nullopt, std::nullopt, std::nullopt, "");
  release.compile_elapsed = clock(2000.0, 1990.0, -10.0, 60.0, "INCONCLUSIVE");
  release.behaviour = "runtime speed";
  release.workload = LeverWorkload::same;

  ledger.outcomes = {backward, lineinfo, fem, cache, workers, pch, release};
  return ledger;
}

std::string written(const LeverLedger& ledger, render::Format format, bool verbose = false) {
  std::ostringstream out;
  render::write(render::LeverLedgerView{ledger, verbose}, format, out);
  return out.str();
}

std::string line_with(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(needle) != std::string::npos) return line;
  }
  return "";
}

void expect_fits_a_screen(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_LE(render::columns(line), render::kScreenColumns) << line;
  }
}

TEST(LeverTally, SavingIsTheJudgesDeltaNotTheDifferenceOfMedians) {
  EXPECT_EQ(results::saving_ms(clock(100.0, 90.0, -12.0, 2.0, "IMPROVED")), 12.0);
  EXPECT_EQ(results::saving_ms(clock(100.0, 90.0, std::nullopt, std::nullopt, "")), 10.0);
  EXPECT_EQ(results::saving_ms(clock(100.0, std::nullopt, std::nullopt, std::nullopt, "")), std::nullopt);
}

TEST(LeverTally, CountsEveryStatusAndJudgesOnTheClockItIsJudgedOn) {
  const auto tally = results::tally(sample_ledger());
  ASSERT_EQ(tally.saves.size(), 1u);
  EXPECT_EQ(tally.saves.front().id, "backward-off");
  EXPECT_EQ(tally.saves.front().saving_ms, 120.0);
  EXPECT_TRUE(tally.costs.empty());
  EXPECT_EQ(tally.inside_noise, 1);
  EXPECT_EQ(tally.not_judged, 1);  // release-mode: its judged clock (cold module work) is missing
  EXPECT_EQ(tally.needed, 1);
  EXPECT_EQ(tally.did_not_arrive, 1);
  EXPECT_EQ(tally.not_applicable, 1);
  EXPECT_EQ(tally.skipped, 1);
  EXPECT_EQ(tally.run(), 5);

  auto elapsed = sample_ledger().outcomes.front();
  elapsed.judged_on = "compile elapsed";  // a scheduling lever: INCONCLUSIVE on elapsed, whatever cold says
  EXPECT_EQ(results::effect_of(elapsed), results::LeverEffect::inside_noise);
}

TEST(LeverTally, BeyondTheBandWithoutTheSignTestIsUndecidedNotNoise) {
  // Seen on example_diffusion with 2 pairs: use_precompiled_headers=False cost +33 s, band ±1.4 s,
  // and the judge said INCONCLUSIVE because two pairs cannot pass the sign test.
  LeverLedger ledger = sample_ledger();
  ledger.pairs = 2;
  auto pch = outcome("pch-flip", LeverKind::config, "use_precompiled_headers", "false", LeverStatus::measured);
  pch.cold_module = clock(13421.7, 46387.9, 32966.2, 1354.4, "INCONCLUSIVE");
  auto small = outcome("max-unroll", LeverKind::config, "max_unroll", "4", LeverStatus::measured);
  small.cold_module = clock(13421.7, 13253.3, -100.0, 134.2, "INCONCLUSIVE");
  ledger.outcomes = {pch, small};
  EXPECT_EQ(results::effect_of(pch), results::LeverEffect::undecided);
  EXPECT_EQ(results::effect_of(small), results::LeverEffect::inside_noise);
  const auto counted = results::tally(ledger);
  EXPECT_EQ(counted.undecided, 1);
  EXPECT_EQ(counted.inside_noise, 1);
  const std::string text = written(ledger, render::Format::text);
  EXPECT_NE(text.find("1 undecided"), std::string::npos) << text;
  EXPECT_NE(text.find("No lever was credited yet: 1 left the band"), std::string::npos) << text;
  EXPECT_EQ(text.find("nothing to take"), std::string::npos) << text;
}

TEST(LeverLedgerText, AnIdWiderThanItsColumnHasALineOfItsOwn) {
  LeverLedger ledger = sample_ledger();
  ledger.outcomes.front().lever.id = "backward-off:_bsr_accumulate_triplet_values_89c51218";
  const std::string text = written(ledger, render::Format::text);
  EXPECT_NE(text.find("\n  backward-off:_bsr_accumulate_triplet_values_89c51218\n"), std::string::npos) << text;
  const std::string header = line_with(text, "  lever ");
  const std::string row = line_with(text, "1234.5 → 1114.5 ms");
  EXPECT_EQ(row.find("measured"), header.find("status")) << header << "\n" << row;
  expect_fits_a_screen(text);
}

TEST(LeverLedgerText, SaysTheAnswerFirstThenOneLinePerLever) {
  const std::string text = written(sample_ledger(), render::Format::text);
  std::istringstream lines(text);
  std::string first, second, third;
  std::getline(lines, first);
  std::getline(lines, second);
  std::getline(lines, third);
  EXPECT_EQ(first, "Levers for python app.py");
  EXPECT_EQ(second, "  Warp 1.19.0 on cpu, 3 pairs against a measured baseline, 18 runs, 82.4 s");
  EXPECT_EQ(third.rfind("5 levers measured: 1 saves 120 ms ± 8 cold (backward-off), 1 inside noise,", 0), 0u) << text;
  EXPECT_NE(text.find("1 needed by this program, 1 did not arrive; 1 not applicable, 1 skipped"), std::string::npos)
      << text;

  const std::string backward = line_with(text, "  backward-off ");
  EXPECT_NE(backward.find("measured"), std::string::npos) << backward;
  EXPECT_NE(backward.find("1234.5 → 1114.5 ms"), std::string::npos) << backward;
  EXPECT_NE(backward.find("IMPROVED"), std::string::npos) << backward;
  EXPECT_NE(backward.find("gradients"), std::string::npos) << backward;
  EXPECT_NE(line_with(text, "backward-off:wp_fem_integrand").find("needed"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "keep-kernel-cache").find("did not arrive"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "max-workers-4").find("not applicable"), std::string::npos) << text;
  EXPECT_NE(line_with(text, "pch-off").find("skipped"), std::string::npos) << text;

  // The missing after-value is "unavailable", and nothing pretends it was measured as 0.
  const std::string release = line_with(text, "  release-mode ");
  EXPECT_NE(release.find("1234.5 ms → unavailable"), std::string::npos) << release;
  EXPECT_NE(release.find("not judged"), std::string::npos) << release;
  EXPECT_EQ(text.find("0.0 ms"), std::string::npos) << text;

  // What to do next: the line to take the lever that saved, and where the rest is.
  EXPECT_NE(text.find("To take it:\n  backward-off: app.py:3: wp.config.enable_backward = False"), std::string::npos)
      << text;
  EXPECT_NE(text.find("`levers --verbose`"), std::string::npos) << text;
  expect_fits_a_screen(text);
  EXPECT_LE(std::count(text.begin(), text.end(), '\n'), 25) << text;
}

TEST(LeverLedgerText, ARowTooLongForTheScreenWrapsOnlyItsLastColumn) {
  LeverLedger ledger = sample_ledger();
  ledger.outcomes.front().behaviour =
      "gradients: no adjoint code is built, so nothing can differentiate these kernels (a Tape's backward fails)";
  const std::string text = written(ledger, render::Format::text);
  const std::string header = line_with(text, "  lever ");
  const std::string backward = line_with(text, "  backward-off ");
  EXPECT_EQ(backward.find("measured"), header.find("status")) << header << "\n" << backward;
  EXPECT_EQ(backward.find("IMPROVED"), header.find("verdict")) << header << "\n" << backward;
  EXPECT_NE(text.find("(a Tape's backward fails)"), std::string::npos) << text;
  expect_fits_a_screen(text);
}

TEST(LeverLedgerText, VerboseAddsScopeOwnerArrivalEvidenceAndThePrediction) {
  const std::string brief = written(sample_ledger(), render::Format::text);
  const std::string text = written(sample_ledger(), render::Format::text, true);
  for (const char* detail :
       {"every module created after `import warp`", "the whole program", "the hashes of 3 target modules moved",
        "Warp's (warp.fem)", "exit status 1 (baseline 0)", "~100 ms (estimate) → measured: saves 120.0 ms",
        "module work 1234.5 → 1114.5 ms (-120.0 ms ± 8.0): IMPROVED — judged on 3 pairs",
        "compile 2000.0 → 1950.0 ms (-50.0 ms ± 60.0): INCONCLUSIVE", "wp.clear_kernel_cache() made a no-op",
        "module option mode = \"release\" on every module"}) {
    EXPECT_NE(text.find(detail), std::string::npos) << detail << "\n" << text;
    EXPECT_EQ(brief.find(detail), std::string::npos) << detail;
  }
  // A lever inside the noise is not credited with a saving.
  EXPECT_NE(text.find("predicted  none → measured: inside noise (-3.1 ms ± 9.0)"), std::string::npos) << text;
  EXPECT_EQ(text.find("saves 3.1"), std::string::npos) << text;
  EXPECT_NE(text.find("  backward-off:wp_fem_integrand: needed by this program\n"), std::string::npos) << text;
  // A lever that did not arrive says so, and is not a saving.
  EXPECT_NE(text.find("no call of wp.clear_kernel_cache was intercepted"), std::string::npos) << text;
  EXPECT_NE(text.find("module work 1234.5 ms → unavailable"), std::string::npos) << text;
  expect_fits_a_screen(text);
}

TEST(LeverLedgerMarkup, MarkdownHasTheAnswerAndOneRowPerLever) {
  const std::string markdown = written(sample_ledger(), render::Format::markdown);
  EXPECT_EQ(markdown.rfind("# Levers, measured\n", 0), 0u) << markdown;
  EXPECT_NE(markdown.find("**5 levers measured: 1 saves 120 ms ± 8 cold (backward-off)"), std::string::npos);
  EXPECT_NE(markdown.find("| Lever | Option and scope | Status | Cold module work |"), std::string::npos) << markdown;
  const std::string backward = line_with(markdown, "| `backward-off` |");
  EXPECT_NE(backward.find("1234.5 → 1114.5 ms (-120.0 ms ± 8.0)"), std::string::npos) << backward;
  EXPECT_NE(backward.find("~100 ms (estimate) → measured: saves 120.0 ms"), std::string::npos) << backward;
  const std::string release = line_with(markdown, "| `release-mode` |");
  EXPECT_NE(release.find("1234.5 ms → unavailable"), std::string::npos) << release;
  EXPECT_NE(line_with(markdown, "| `max-workers-4` |").find("not run"), std::string::npos) << markdown;
  EXPECT_NE(line_with(markdown, "| `pch-off` |").find("| skipped |"), std::string::npos) << markdown;
  EXPECT_NE(markdown.find("**backward-off:wp_fem_integrand — needed by this program**"), std::string::npos);
  EXPECT_NE(markdown.find("- **Evidence:** exit status 1 (baseline 0)"), std::string::npos) << markdown;
}

TEST(LeverLedgerMarkup, HtmlIsOnePageWithTheTableEscaped) {
  const std::string html = written(sample_ledger(), render::Format::html);
  EXPECT_NE(html.find("<h1>Levers, measured</h1>"), std::string::npos) << html.substr(0, 400);
  EXPECT_NE(html.find("<table"), std::string::npos);
  EXPECT_NE(html.find("<code>backward-off</code>"), std::string::npos);
  EXPECT_NE(html.find("&quot;grad 0.5&quot;"), std::string::npos);  // the evidence's quotes, escaped
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(LeverLedgerJson, UnmeasuredValuesAreNullAndTheDocumentSaysItsKind) {
  const auto document = nlohmann::json::parse(written(sample_ledger(), render::Format::json));
  EXPECT_EQ(document.at("kind"), "levers");
  EXPECT_EQ(document.at("schema_version"), kReportSchemaVersion);
  const auto& outcomes = document.at("outcomes");
  ASSERT_EQ(outcomes.size(), 7u);
  EXPECT_EQ(outcomes[0].at("lever").at("value"), false);
  EXPECT_EQ(outcomes[0].at("lever").at("mechanism"), "CS-10");
  EXPECT_EQ(outcomes[0].at("cold_module").at("delta_ms"), -120.0);
  EXPECT_EQ(outcomes[0].at("predicted_saving_ms"), 100.0);
  EXPECT_EQ(outcomes[2].at("status"), "needed_by_program");
  EXPECT_EQ(outcomes[2].at("workload"), "program_failed");
  const auto& release = outcomes[6];
  EXPECT_EQ(release.at("lever").at("value"), "release");
  EXPECT_TRUE(release.at("cold_module").at("after_ms").is_null());
  EXPECT_TRUE(release.at("cold_module").at("delta_ms").is_null());
  EXPECT_TRUE(release.at("cold_module").at("band_ms").is_null());
  EXPECT_TRUE(release.at("cold_module").at("verdict").is_null());
  EXPECT_TRUE(release.at("predicted_saving_ms").is_null());
  EXPECT_TRUE(outcomes[4].at("cold_module").at("before_ms").is_null());  // not applicable: never run
}

TEST(LeverLedgerJson, ReadsBackWhatItWrote) {
  const LeverLedger ledger = sample_ledger();
  const auto text = lever_ledger_to_json_text(ledger);
  EXPECT_EQ(lever_ledger_from_json(nlohmann::json::parse(text), "levers.json"), ledger);
}

TEST(LeverLedgerJson, PairsAutoAndHowEachLeverWasDecidedReadBack) {
  LeverLedger ledger = sample_ledger();
  ledger.pairs_automatic = true;
  ledger.outcomes.front().decided_by = "decided after 5 pairs: IMPROVED";
  const auto document = lever_ledger_to_json(ledger);
  EXPECT_EQ(document.at("pairs_mode"), "auto");
  EXPECT_EQ(document.at("outcomes")[0].at("decided_by"), "decided after 5 pairs: IMPROVED");
  EXPECT_TRUE(document.at("outcomes")[1].at("decided_by").is_null());
  EXPECT_EQ(lever_ledger_from_json(document, "levers.json"), ledger);
  EXPECT_EQ(lever_ledger_to_json(sample_ledger()).at("pairs_mode"), "fixed");
}

TEST(LeverLedgerJson, RefusesOtherDocumentsAndUnknownNamesNamingTheField) {
  auto document = lever_ledger_to_json(sample_ledger());
  EXPECT_EQ(document.at("document"), "levers");
  EXPECT_EQ(document.at("version"), document_version(DocumentKind::levers));
  auto ab = document;
  ab["document"] = "ab";
  EXPECT_THROW(lever_ledger_from_json(ab, "ab.json"), UsageError);
  auto future = document;
  future["version"] = document_version(DocumentKind::levers) + 1;
  EXPECT_THROW(lever_ledger_from_json(future, "future.json"), UsageError);
  // A ledger from before `document` (report schema 13 and earlier) names itself by `kind` and
  // is checked on its schema_version.
  auto older = document;
  older.erase("document");
  older.erase("version");
  older["schema_version"] = 13;
  EXPECT_EQ(lever_ledger_from_json(older, "older.json"), sample_ledger());
  older["kind"] = "ab";
  EXPECT_THROW(lever_ledger_from_json(older, "older-ab.json"), UsageError);
  older["kind"] = "levers";
  older["schema_version"] = kReportSchemaVersion + 1;
  EXPECT_THROW(lever_ledger_from_json(older, "older-future.json"), UsageError);
  auto status = document;
  status["outcomes"][1]["status"] = "saved";
  try {
    lever_ledger_from_json(status, "levers.json");
    FAIL() << "an unknown status was accepted";
  } catch (const UsageError& error) {
    EXPECT_NE(std::string(error.what()).find("levers.json: outcomes[1]: field 'status' is 'saved'"), std::string::npos)
        << error.what();
  }
  auto clock_type = document;
  clock_type["outcomes"][0]["cold_module"]["after_ms"] = "fast";
  EXPECT_THROW(lever_ledger_from_json(clock_type, "levers.json"), UsageError);
}

TEST(LeverLedgerYaml, HasAnEntryForEveryLeverThatRanWithWhatWasMeasured) {
  const results::Ledger ledger = results::ledger_from_levers(sample_ledger());
  ASSERT_EQ(ledger.declined.size(), 5u);  // not applicable and skipped were not measured options
  EXPECT_EQ(ledger.declined[0].option, "wp.config.enable_backward = False (every module created after `import warp`)");
  EXPECT_EQ(ledger.declined[0].measured, "-120.0 ms cold module work ± 8.0 (IMPROVED)");
  EXPECT_EQ(ledger.declined[0].why_not, "not taken yet: measured by `levers`; taking it changes gradients");
  EXPECT_EQ(ledger.declined[0].to_take_it, "app.py:3: wp.config.enable_backward = False, right after `import warp`");
  EXPECT_EQ(ledger.declined[1].measured, "inside noise: -3.1 ms cold module work ± 9.0 (INCONCLUSIVE)");
  EXPECT_EQ(ledger.declined[2].option, "module option enable_backward = False on wp_fem_integrand");
  EXPECT_EQ(ledger.declined[2].measured, "needed by this program: the program failed: exit status 1");
  EXPECT_EQ(ledger.declined[2].why_not,
            "taking it breaks this program: the program failed; exit status 1 (baseline 0)");
  EXPECT_EQ(ledger.declined[3].measured,
            "not measured: it did not arrive (no call of wp.clear_kernel_cache was intercepted)");
  EXPECT_EQ(ledger.declined[4].measured, "not judged: cold module work unavailable");
}

TEST(LeverLedgerYaml, ParseLedgerReadsBackTheSameEntries) {
  results::Ledger ledger = results::ledger_from_levers(sample_ledger());
  // What YAML would otherwise take for syntax: a colon and a hash, quotes, a leading dash, a newline.
  ledger.declined.push_back({"- mode: \"debug\" # on purpose", "n/a: 'quoted'", "line one\nline two", ""});
  const std::string yaml = results::ledger_to_yaml(ledger);
  EXPECT_EQ(results::parse_ledger(yaml, "ledger.yaml"), ledger) << yaml;
  EXPECT_EQ(results::parse_ledger(results::ledger_to_yaml({}), "empty.yaml"), results::Ledger{});
  EXPECT_EQ(results::parse_ledger(results::lever_ledger_yaml(sample_ledger()), "l.yaml"),
            results::ledger_from_levers(sample_ledger()));
}

TEST(ResultsReportLevers, ReportCarriesTheLeversAsTheirOwnSectionOnlyWhenGiven) {
  results::ResultsReport results = results::build_results_report(Report{}, Report{}, verdict::Judgement{}, {}, {}, {});
  const std::string without = render::render_results_markdown(results);
  EXPECT_EQ(without.find("Levers, measured"), std::string::npos) << without;

  results.levers = sample_ledger();
  const std::string markdown = render::render_results_markdown(results);
  const auto section = markdown.find("## Levers, measured\n");
  ASSERT_NE(section, std::string::npos) << markdown;
  EXPECT_GT(section, markdown.find("## Options measured and not taken"));
  EXPECT_NE(markdown.find("**5 levers measured: 1 saves 120 ms ± 8 cold (backward-off)", section), std::string::npos);
  EXPECT_NE(markdown.find("| `release-mode` |", section), std::string::npos);

  std::ostringstream summary;
  render::render_results_summary_text(results, summary);
  EXPECT_NE(summary.str().find("Levers: 5 levers measured: 1 saves 120 ms ± 8 cold (backward-off)"), std::string::npos)
      << summary.str();
  std::ostringstream html;
  render::write(results, render::Format::html, html);
  EXPECT_NE(html.str().find("<h2>Levers, measured</h2>"), std::string::npos);
}

}  // namespace
}  // namespace wcp
