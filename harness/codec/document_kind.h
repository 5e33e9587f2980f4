#pragma once
// What a JSON file given as input is. Each writer, ours and the usual neighbours of a
// benchmark-minded project (hyperfine, pytest-benchmark, Google Benchmark, asv), always writes
// a few fields that name its document; readers check them before reading, so that another
// tool's file is refused by name instead of its absent fields reading as an empty measurement
// (issue 50: `compare hyperfine.json hyperfine.json` must not give a verdict).
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/report.h"

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

// One of this tool's own JSON documents (docs/documents.md): the name it carries in its
// `document` field, the version it is written at (its `version` field), and the command that
// writes it. The other tools' kinds above have no entry.
struct DocumentType {
  DocumentKind kind;
  std::string_view name;
  int version;
  std::string_view written_by;
};

// Each document's current version lives here and only here. The report's is its
// `schema_version` too (model/report.h). The diagnosis's is its `schema_version` as well: 2 added
// each finding's typed `facts` (docs/report-schema.md); the calibration file kept its
// `schema_version` 1.
constexpr int document_version(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::report:
      return kReportSchemaVersion;
    case DocumentKind::diagnosis:
      return 2;
    // Version 2 (issue 63): the verdicts UNCHANGED and NOT JUDGED, and the fields that explain
    // them (identity_decision, runner_speed, each clock's detectable_percent).
    case DocumentKind::judgement:
    case DocumentKind::check_result:
    case DocumentKind::ab:
      return 2;
    default:
      return 1;
  }
}

// Every document this tool writes, in the order docs/documents.md lists them.
std::span<const DocumentType> document_types();
// The entry of one of ours; nullptr for another tool's kind or a shape.
const DocumentType* document_type(DocumentKind kind);

// `body` (an object) with its `document` and `version` fields set: every JSON output of this
// tool goes out through here, so a reader can tell it by name.
nlohmann::json as_document(DocumentKind kind, nlohmann::json body);

DocumentKind identify_document(const nlohmann::json& document);

// What the kind looks like to a user, as a noun phrase: "hyperfine JSON export".
std::string_view describe(DocumentKind kind);

// Throws UsageError "SOURCE: <what it is>, not a warp-compile-probe report" unless the document
// is a report of this tool or of the original probe.
void require_report(const nlohmann::json& document, std::string_view source);

// Throws UsageError "SOURCE: <what it is>, not <what was wanted>" unless `document` is of the
// kind `wanted`, and "SOURCE: <kind> version N: this tool reads up to M" for a later version.
// A document written before `version` existed reads as its kind's version 1.
void require_document(const nlohmann::json& document, DocumentKind wanted, std::string_view source);

// Parses `text`, throwing UsageError naming `source` when it is not JSON; a file that ends
// inside the document is called truncated, and a SQLite database (a history given where a
// report belongs) is named as one.
nlohmann::json parse_json_document(std::string_view text, std::string_view source);

}  // namespace wcp
