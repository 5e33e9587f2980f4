#include "codec/document_kind.h"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>

#include <fmt/format.h>

#include "errors.h"

namespace wcp {
namespace {

using nlohmann::json;

bool has_all(const json& object, std::initializer_list<std::string_view> keys) {
  return std::all_of(keys.begin(), keys.end(), [&](std::string_view key) { return object.contains(key); });
}

bool is_array_of_objects_with(const json& object, std::string_view key, std::string_view member) {
  const auto found = object.find(key);
  if (found == object.end() || !found->is_array()) return false;
  return std::any_of(found->begin(), found->end(),
                     [&](const json& item) { return item.is_object() && item.contains(member); });
}

// asv's benchmarks.json: one object per benchmark, each with its code and type, plus `version`.
bool looks_like_asv_benchmarks(const json& document) {
  if (!document.contains("version")) return false;
  return std::any_of(document.begin(), document.end(), [](const json& value) {
    return value.is_object() && value.contains("code") && value.contains("type");
  });
}

// asv's machine.json: the machine's name and description, and the file's version.
bool looks_like_asv_machine(const json& document) {
  static constexpr std::string_view kKeys[] = {"machine", "version", "arch", "cpu", "num_cpu", "os", "ram"};
  if (!has_all(document, {"machine", "version"}) || !document.at("machine").is_string()) return false;
  return std::all_of(document.items().begin(), document.items().end(), [](const auto& item) {
    return std::find(std::begin(kKeys), std::end(kKeys), item.key()) != std::end(kKeys);
  });
}

constexpr DocumentType kDocumentTypes[] = {
    {DocumentKind::report, "report", document_version(DocumentKind::report), "measure --json"},
    {DocumentKind::diagnosis, "diagnosis", document_version(DocumentKind::diagnosis), "diagnose --json"},
    {DocumentKind::judgement, "judgement", document_version(DocumentKind::judgement), "compare --json"},
    {DocumentKind::check_result, "check-result", document_version(DocumentKind::check_result), "check --json"},
    {DocumentKind::ab, "ab", document_version(DocumentKind::ab), "ab --json"},
    {DocumentKind::levers, "levers", document_version(DocumentKind::levers), "levers --json"},
    {DocumentKind::history, "history", document_version(DocumentKind::history), "history show --json"},
    {DocumentKind::bisect, "bisect", document_version(DocumentKind::bisect), "bisect --json"},
    {DocumentKind::calibration, "calibration", document_version(DocumentKind::calibration), "calibrate"},
};

// A `document` field naming one of ours, with a whole-number `version` beside it: another
// tool's file that happens to use the word is not taken for ours.
std::optional<DocumentKind> kind_by_document_field(const json& document) {
  const auto name = document.find("document");
  const auto version = document.find("version");
  if (name == document.end() || !name->is_string() || version == document.end() || !version->is_number_integer())
    return std::nullopt;
  for (const DocumentType& type : kDocumentTypes) {
    if (type.name == name->get_ref<const std::string&>()) return type.kind;
  }
  return std::nullopt;
}

// Before `document` existed (schema 13 and earlier), ab, levers and history named themselves so.
std::optional<DocumentKind> kind_by_name(const json& document) {
  const auto kind = document.find("kind");
  if (kind == document.end() || !kind->is_string()) return std::nullopt;
  const auto& name = kind->get_ref<const std::string&>();
  if (name == "ab") return DocumentKind::ab;
  if (name == "levers") return DocumentKind::levers;
  if (name == "history") return DocumentKind::history;
  return std::nullopt;
}

// Python's json writes NaN and Infinity bare (asv does), which JSON does not allow. For naming
// a file only, each is read as null; a report of ours never holds them.
std::string without_python_non_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size())
        out += text[++i];
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    bool replaced = false;
    for (std::string_view token : {"-Infinity", "Infinity", "NaN"}) {
      if (text.substr(i).starts_with(token)) {
        out += "null";
        i += token.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

}  // namespace

std::span<const DocumentType> document_types() {
  return kDocumentTypes;
}

const DocumentType* document_type(DocumentKind kind) {
  for (const DocumentType& type : kDocumentTypes) {
    if (type.kind == kind) return &type;
  }
  return nullptr;
}

json as_document(DocumentKind kind, json body) {
  const DocumentType* type = document_type(kind);
  if (type == nullptr) throw std::logic_error("as_document: not a document of this tool");
  body["document"] = type->name;
  body["version"] = type->version;
  return body;
}

DocumentKind identify_document(const json& document) {
  if (document.is_array()) return DocumentKind::array;
  if (!document.is_object()) return DocumentKind::scalar;
  if (document.empty()) return DocumentKind::empty_object;
  if (const auto named = kind_by_document_field(document)) return *named;
  if (const auto named = kind_by_name(document)) return *named;
  // Ours first: each of our documents has fields no neighbour's has.
  if (has_all(document, {"schema_version", "findings", "bottleneck"})) return DocumentKind::diagnosis;
  if (has_all(document, {"schema_version", "machine", "cuda"})) return DocumentKind::calibration;
  if (has_all(document, {"verdict", "workload", "cold_module_work"})) return DocumentKind::judgement;
  if (has_all(document, {"file", "passed", "commands"})) return DocumentKind::check_result;
  if (has_all(document, {"good", "bad", "result"})) return DocumentKind::bisect;
  if (has_all(document, {"schema_version", "samples"})) return DocumentKind::report;
  // The original probe writes no version; its summaries are its signature.
  if (has_all(document, {"command", "samples"}) &&
      (document.contains("cold_module_ms_median") || document.contains("module_events"))) {
    return DocumentKind::probe_report;
  }
  if (is_array_of_objects_with(document, "results", "times") || is_array_of_objects_with(document, "results", "mean")) {
    return DocumentKind::hyperfine;
  }
  if (document.contains("benchmarks") && document.contains("machine_info")) return DocumentKind::pytest_benchmark;
  if (document.contains("benchmarks") && document.contains("context")) return DocumentKind::google_benchmark;
  if (document.contains("commit_hash") && (document.contains("env_name") || document.contains("result_columns"))) {
    return DocumentKind::asv_results;
  }
  if (looks_like_asv_machine(document)) return DocumentKind::asv_machine;
  if (looks_like_asv_benchmarks(document)) return DocumentKind::asv_benchmarks;
  return DocumentKind::other_object;
}

std::string_view describe(DocumentKind kind) {
  switch (kind) {
    case DocumentKind::report:
      return "a warp-compile-probe report";
    case DocumentKind::probe_report:
      return "a report of the original probe";
    case DocumentKind::ab:
      return "an `ab --json` document (give it to `report`)";
    case DocumentKind::levers:
      return "a `levers --json` ledger";
    case DocumentKind::history:
      return "a `history show --json` export";
    case DocumentKind::diagnosis:
      return "a `diagnose --json` document";
    case DocumentKind::calibration:
      return "a calibration file";
    case DocumentKind::judgement:
      return "a `compare --json` judgement";
    case DocumentKind::check_result:
      return "a `check --json` result";
    case DocumentKind::bisect:
      return "a `bisect --json` result";
    case DocumentKind::hyperfine:
      return "hyperfine JSON export";
    case DocumentKind::pytest_benchmark:
      return "pytest-benchmark JSON";
    case DocumentKind::google_benchmark:
      return "Google Benchmark JSON";
    case DocumentKind::asv_results:
      return "an asv results file";
    case DocumentKind::asv_machine:
      return "an asv machine file";
    case DocumentKind::asv_benchmarks:
      return "an asv benchmarks.json";
    case DocumentKind::empty_object:
      return "an empty JSON object";
    case DocumentKind::array:
      return "a JSON array";
    case DocumentKind::scalar:
      return "a bare JSON value";
    case DocumentKind::other_object:
      return "a JSON object without a report's `schema_version` and `samples`";
  }
  return "an unknown document";
}

void require_report(const json& document, std::string_view source) {
  const DocumentKind kind = identify_document(document);
  if (kind == DocumentKind::report || kind == DocumentKind::probe_report) return;
  throw UsageError(fmt::format("{}: {}, not a warp-compile-probe report", source, describe(kind)));
}

void require_document(const json& document, DocumentKind wanted, std::string_view source) {
  const DocumentKind kind = identify_document(document);
  if (kind != wanted) throw UsageError(fmt::format("{}: {}, not {}", source, describe(kind), describe(wanted)));
  const DocumentType* type = document_type(wanted);
  const auto version = document.find("version");
  if (type == nullptr || version == document.end() || !version->is_number_integer()) return;
  if (const auto found = version->get<std::int64_t>(); found > type->version) {
    throw UsageError(
        fmt::format("{}: {} version {}: this tool reads up to {}", source, describe(kind), found, type->version));
  }
}

json parse_json_document(std::string_view text, std::string_view source) {
  // A history is a SQLite file; its 16-byte header says so.
  if (text.starts_with(std::string_view("SQLite format 3\0", 16))) {
    throw UsageError(fmt::format("{}: a SQLite database (a --history file?), not a JSON document", source));
  }
  try {
    return json::parse(text);
  } catch (const json::parse_error& error) {
    const bool truncated = error.byte >= text.size() && !text.empty();
    if (truncated) {
      throw UsageError(
          fmt::format("{}: truncated JSON: it ends at byte {} before the document closes", source, text.size()));
    }
    const json lenient = json::parse(without_python_non_numbers(text), nullptr, /*allow_exceptions=*/false);
    if (!lenient.is_discarded()) {
      throw UsageError(fmt::format("{}: {} with NaN or Infinity, not a warp-compile-probe report", source,
                                   describe(identify_document(lenient))));
    }
    throw UsageError(fmt::format("{}: not valid JSON (byte {})", source, error.byte));
  } catch (const json::exception& error) {
    // Valid syntax the parser still cannot hold, such as a number beyond a double (2e308).
    std::string_view what = error.what();
    if (const auto end = what.find("] "); what.starts_with("[json.exception") && end != std::string_view::npos)
      what.remove_prefix(end + 2);
    throw UsageError(fmt::format("{}: not valid JSON ({})", source, what));
  }
}

}  // namespace wcp
