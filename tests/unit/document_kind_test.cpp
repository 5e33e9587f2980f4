// What a JSON input is (codec/document_kind): each neighbour's signature fields, our own
// documents, and what a reader says when given the wrong one.
#include "codec/document_kind.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "codec/report_json.h"
#include "errors.h"

namespace wcp {
namespace {

using nlohmann::json;

DocumentKind kind_of(const char* text) {
  return identify_document(json::parse(text));
}

std::string refusal(std::string_view text) {
  try {
    report_from_json_text(text, "f.json");
  } catch (const UsageError& error) {
    return error.what();
  }
  return "";
}

TEST(DocumentKind, NamesTheNeighboursFiles) {
  EXPECT_EQ(kind_of(R"({"results": [{"command": "true", "mean": 0.001, "times": [0.001]}]})"), DocumentKind::hyperfine);
  EXPECT_EQ(kind_of(R"({"machine_info": {}, "commit_info": {}, "benchmarks": [], "version": "5.3.1"})"),
            DocumentKind::pytest_benchmark);
  EXPECT_EQ(kind_of(R"({"context": {"num_cpus": 2}, "benchmarks": [{"name": "BM_x"}]})"),
            DocumentKind::google_benchmark);
  EXPECT_EQ(kind_of(R"({"commit_hash": "07c1", "env_name": "existing", "results": {}, "version": 2})"),
            DocumentKind::asv_results);
  EXPECT_EQ(kind_of(R"({"machine": "m", "version": 1})"), DocumentKind::asv_machine);
  EXPECT_EQ(kind_of(R"({"bench.time_x": {"code": "def time_x(): pass", "type": "time"}, "version": 2})"),
            DocumentKind::asv_benchmarks);
}

TEST(DocumentKind, NamesOurOwnDocuments) {
  EXPECT_EQ(kind_of(R"({"schema_version": 13, "samples": 3, "command": ["python", "app.py"]})"), DocumentKind::report);
  EXPECT_EQ(kind_of(R"({"command": "python app.py", "samples": 3, "cold_module_ms_median": 10.0})"),
            DocumentKind::probe_report);
  EXPECT_EQ(kind_of(R"({"kind": "ab", "baseline": {}, "candidate": {}})"), DocumentKind::ab);
  EXPECT_EQ(kind_of(R"({"schema_version": 1, "findings": [], "bottleneck": "compile"})"), DocumentKind::diagnosis);
  EXPECT_EQ(kind_of(R"({"verdict": "PASS", "workload": {}, "cold_module_work": {}})"), DocumentKind::judgement);
  EXPECT_EQ(kind_of(R"({"file": "b.yaml", "passed": true, "commands": []})"), DocumentKind::check_result);
  EXPECT_EQ(kind_of(R"({"schema_version": 1, "machine": {}, "cuda": {}, "wall_ms": 1})"), DocumentKind::calibration);
}

TEST(DocumentKind, AReaderRefusesAnotherDocumentByName) {
  EXPECT_EQ(refusal(R"({"results": [{"command": "true", "times": [0.1]}]})"),
            "f.json: hyperfine JSON export, not a warp-compile-probe report");
  EXPECT_EQ(refusal("{}"), "f.json: an empty JSON object, not a warp-compile-probe report");
  EXPECT_EQ(refusal("[]"), "f.json: a JSON array, not a warp-compile-probe report");
  EXPECT_EQ(refusal(R"({"verdict": "PASS", "workload": {}, "cold_module_work": {}})"),
            "f.json: a `compare --json` judgement, not a warp-compile-probe report");
  // A report with a field it should not have is a report with a bad field, not a foreign file.
  EXPECT_NE(refusal(R"({"schema_version": 13, "samples": 1, "identities": "x"})").find("'identities'"),
            std::string::npos);
}

TEST(DocumentKind, ParsingNamesTruncationNonNumbersAndDatabases) {
  EXPECT_EQ(refusal(R"({"schema_version": 13, "samples": [)"),
            "f.json: truncated JSON: it ends at byte 35 before the document closes");
  EXPECT_EQ(refusal(R"({"commit_hash": "a", "env_name": "e", "results": {"x": [NaN, -Infinity, "NaN"]}})"),
            "f.json: an asv results file with NaN or Infinity, not a warp-compile-probe report");
  EXPECT_EQ(refusal(std::string_view("SQLite format 3\0\x10\x00", 18)),
            "f.json: a SQLite database (a --history file?), not a JSON document");
  EXPECT_EQ(refusal("{not json"), "f.json: not valid JSON (byte 3)");
  // Found by report_json_fuzz: a number beyond a double is the parser's out_of_range, not a
  // parse_error; it is a usage error too, never an exception escaping the reader.
  EXPECT_EQ(refusal(R"({"schema_version": 13, "samples": 1, "ms": 2e308})"),
            "f.json: not valid JSON (number overflow parsing '2e308')");
}

// Every document of ours carries its name and version, is told by them before any field
// guess, and each reader refuses the others by name.
TEST(DocumentKind, EachOfOurDocumentsIsToldByItsNameAndVersion) {
  ASSERT_FALSE(document_types().empty());
  for (const DocumentType& type : document_types()) {
    SCOPED_TRACE(std::string(type.name));
    const json document = as_document(type.kind, json{{"anything", 1}});
    EXPECT_EQ(document.at("document"), type.name);
    EXPECT_EQ(document.at("version"), type.version);
    EXPECT_EQ(document_type(type.kind), &type);
    EXPECT_EQ(identify_document(document), type.kind);
    EXPECT_NO_THROW(require_document(document, type.kind, "f.json"));
    for (const DocumentType& other : document_types()) {
      if (other.kind == type.kind) continue;
      try {
        require_document(document, other.kind, "f.json");
        ADD_FAILURE() << "read as " << other.name;
      } catch (const UsageError& error) {
        EXPECT_EQ(std::string(error.what()),
                  fmt::format("f.json: {}, not {}", describe(type.kind), describe(other.kind)));
      }
    }
    json later = document;
    later["version"] = type.version + 1;
    EXPECT_THROW(require_document(later, type.kind, "f.json"), UsageError);
  }
  EXPECT_EQ(document_version(DocumentKind::report), kReportSchemaVersion);
  EXPECT_EQ(document_type(DocumentKind::hyperfine), nullptr);
  EXPECT_THROW(as_document(DocumentKind::hyperfine, json::object()), std::logic_error);
}

TEST(DocumentKind, AForeignDocumentFieldWithoutAVersionIsNotOurs) {
  EXPECT_EQ(kind_of(R"({"document": "report", "title": "Q3"})"), DocumentKind::other_object);
  EXPECT_EQ(kind_of(R"({"document": "report", "version": "1.0"})"), DocumentKind::other_object);
  EXPECT_EQ(kind_of(R"({"document": "minutes", "version": 3})"), DocumentKind::other_object);
}

TEST(DocumentKind, AReportCarriesItsDocumentHeader) {
  const json document = report_to_json(Report{});
  EXPECT_EQ(document.at("document"), "report");
  EXPECT_EQ(document.at("version"), kReportSchemaVersion);
  EXPECT_EQ(document.at("schema_version"), kReportSchemaVersion);
  EXPECT_NO_THROW(require_report(document, "r.json"));
}

}  // namespace
}  // namespace wcp
