#include "render/format.h"

#include "codec/document_kind.h"
#include "codec/report_json.h"
#include "render/bisect_json.h"
#include "render/bisect_text.h"
#include "render/budget_json.h"
#include "render/budget_markdown.h"
#include "render/budget_text.h"
#include "render/diagnosis_json.h"
#include "render/diagnosis_text.h"
#include "render/history_html.h"
#include "render/history_json.h"
#include "render/history_markdown.h"
#include "render/history_text.h"
#include "render/judgement_json.h"
#include "render/judgement_text.h"
#include "render/lever_ledger_html.h"
#include "render/lever_ledger_json.h"
#include "render/lever_ledger_markdown.h"
#include "render/lever_ledger_text.h"
#include "render/report_text.h"
#include "render/results_html.h"
#include "render/results_markdown.h"

namespace wcp::render {
namespace {
[[noreturn]] void unsupported(std::string_view kind, Format format) {
  throw std::invalid_argument(std::string(kind) + " has no " + std::string(to_string(format)) + " writer");
}
}  // namespace

std::string_view to_string(Format format) {
  switch (format) {
    case Format::text:
      return "text";
    case Format::json:
      return "json";
    case Format::markdown:
      return "markdown";
    case Format::html:
      return "html";
  }
  return "";
}

void write(const Report& report, Format format, std::ostream& out) {
  switch (format) {
    case Format::json:
      out << report_to_json_text(report);
      return;
    default:
      unsupported("a report (text takes its ReportView)", format);
  }
}

void write(const ReportView& view, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
      render_report_text(view, out);
      return;
    default:
      write(view.report, format, out);
  }
}

void write(const analysis::Diagnosis& diagnosis, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
      render_diagnosis_text(diagnosis, out);
      return;
    case Format::json:
      out << as_document(DocumentKind::diagnosis, diagnosis_to_json(diagnosis)).dump(2) << '\n';
      return;
    default:
      unsupported("a diagnosis", format);
  }
}

void write(const verdict::Judgement& judgement, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
      render_judgement_text(judgement, out);
      return;
    case Format::json:
      out << as_document(DocumentKind::judgement, judgement_to_json(judgement)).dump(2) << '\n';
      return;
    default:
      unsupported("a comparison", format);
  }
}

void write(const budget::CheckResult& result, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
      render_budget_header(result.file, out);
      for (const auto& command : result.commands) render_command_result(command, out);
      render_budget_summary(result, out);
      return;
    case Format::json:
      out << as_document(DocumentKind::check_result, budget_result_to_json(result)).dump(2) << '\n';
      return;
    case Format::markdown:
      out << render_budget_markdown(result);
      return;
    default:
      unsupported("a budget check", format);
  }
}

void write(const results::ResultsReport& results, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
    case Format::markdown:
      out << render_results_markdown(results);
      return;
    case Format::html:
      out << render_results_html(results);
      return;
    default:
      unsupported("a results report", format);
  }
}

void write(const HistoryView& history, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
      render_history_text(history.series, out);
      return;
    case Format::json:
      out << as_document(DocumentKind::history, history_to_json(history.series)).dump(2) << '\n';
      return;
    case Format::markdown:
      render_history_markdown(history.series, out);
      return;
    case Format::html:
      out << render_history_html(history.series, history.source_path, history.branch_verdicts, history.slowest_tests);
      return;
  }
}

void write(const bisect::BisectResult& result, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
      render_bisect_text(result, out);
      return;
    case Format::json:
      out << as_document(DocumentKind::bisect, bisect_to_json(result)).dump(2) << '\n';
      return;
    default:
      unsupported("a bisection", format);
  }
}

void write(const LeverLedger& ledger, Format format, std::ostream& out) {
  write(LeverLedgerView{ledger}, format, out);
}

void write(const LeverLedgerView& view, Format format, std::ostream& out) {
  switch (format) {
    case Format::text:
      render_lever_ledger_text(view.ledger, view.verbose, out);
      return;
    case Format::json:
      out << render_lever_ledger_json(view.ledger);
      return;
    case Format::markdown:
      out << render_lever_ledger_markdown(view.ledger);
      return;
    case Format::html:
      out << render_lever_ledger_html(view.ledger);
      return;
  }
}

}  // namespace wcp::render
