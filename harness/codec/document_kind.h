#pragma once
// What a JSON file given as input is. Each writer, ours and the usual neighbours of a
// benchmark-minded project (hyperfine, pytest-benchmark, Google Benchmark, asv), always writes
// a few fields that name its document; readers check them before reading, so that another
// tool's file is refused by name instead of its absent fields reading as an empty measurement
// (issue 50: `compare hyperfine.json hyperfine.json` must not give a verdict).
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace wcp {

enum class DocumentKind {
  report,        // this tool's report (`measure --json`)
  probe_report,  // the original Python probe's report
  ab,            // `ab --json`
  levers,        // `levers --json`
  history,       // `history show --json`
  diagnosis,     // `diagnose --json`
  calibration,   // `calibrate` output
  judgement,     // `compare --json`
  check_result,  // `check --json`
  bisect,        // `bisect --json`
  hyperfine,
  pytest_benchmark,
  google_benchmark,
  asv_results,
  asv_machine,
  asv_benchmarks,
  empty_object,
  array,
  scalar,
  other_object,
};

DocumentKind identify_document(const nlohmann::json& document);

// What the kind looks like to a user, as a noun phrase: "hyperfine JSON export".
std::string_view describe(DocumentKind kind);

// Throws UsageError "SOURCE: <what it is>, not a warp-compile-probe report" unless the document
// is a report of this tool or of the original probe.
void require_report(const nlohmann::json& document, std::string_view source);

// Parses `text`, throwing UsageError naming `source` when it is not JSON; a file that ends
// inside the document is called truncated, and a SQLite database (a history given where a
// report belongs) is named as one.
nlohmann::json parse_json_document(std::string_view text, std::string_view source);

}  // namespace wcp
