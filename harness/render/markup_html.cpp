#include "render/markup_html.h"

#include "render/svg_charts.h"

namespace wcp::render::markup {
namespace {

std::string html_text(const Text& text) {
  std::string out;
  for (const auto& span : text) {
    const std::string body = escape_xml(span.text);
    switch (span.style) {
      case Span::Style::plain:
        out += body;
        break;
      case Span::Style::code:
        out += "<code>" + body + "</code>";
        break;
      case Span::Style::strong:
        out += "<strong>" + body + "</strong>";
        break;
    }
  }
  return out;
}

std::string html_table(const Table& table) {
  std::string out = "<table>\n<tr>";
  for (const auto& column : table.columns) out += "<th>" + escape_xml(column.header) + "</th>";
  out += "</tr>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool numeric = i < table.columns.size() && table.columns[i].numeric;
      out += (numeric ? "<td class=\"num\">" : "<td>") + html_text(row[i]) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

struct HtmlBlock {
  std::string operator()(const Heading& heading) const {
    const std::string tag = "h" + std::to_string(heading.level);
    return "<" + tag + ">" + escape_xml(heading.text) + "</" + tag + ">\n";
  }
  std::string operator()(const Paragraph& paragraph) const {
    const std::string open = paragraph.html_class.empty() ? "<p>" : "<p class=\"" + paragraph.html_class + "\">";
    return open + html_text(paragraph.text) + "</p>\n";
  }
  std::string operator()(const Note& note) const { return "<p class=\"note\">" + escape_xml(note.text) + "</p>\n"; }
  std::string operator()(const Lines& lines) const {
    std::string out = "<p>";
    for (std::size_t i = 0; i < lines.lines.size(); ++i) out += (i ? "<br>" : "") + html_text(lines.lines[i]);
    return out + "</p>\n";
  }
  std::string operator()(const List& list) const {
    std::string out = "<h3>" + escape_xml(list.title) + "</h3>\n<ul>\n";
    for (const auto& item : list.items) out += "<li>" + html_text(item) + "</li>\n";
    return out + "</ul>\n";
  }
  std::string operator()(const Table& table) const { return html_table(table); }
  std::string operator()(const Figure& figure) const { return figure.svg + "\n"; }
};

}  // namespace

std::string html_page(const std::string& title, const std::string& style, const std::string& body) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>" + escape_xml(title) + "</title>\n<style>" + style + "</style>\n</head>\n<body>\n";
  out += "<h1>" + escape_xml(title) + "</h1>\n";
  return out + body + "</body>\n</html>\n";
}

std::string to_html(const Document& document, const std::string& style) {
  std::string body;
  for (const auto& block : document.blocks) body += std::visit(HtmlBlock{}, block);
  return html_page(document.title, style, body);
}

}  // namespace wcp::render::markup
