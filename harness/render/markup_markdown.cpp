#include "render/markup_markdown.h"

#include "render/markdown.h"

namespace wcp::render::markup {
namespace {

// Inside a table a cell must stay on one line and must not close early; elsewhere text is as is.
std::string markdown_text(const Text& text, bool in_table) {
  std::string out;
  for (const auto& span : text) {
    const std::string body = in_table ? markdown_cell(span.text) : span.text;
    switch (span.style) {
      case Span::Style::plain:
        out += body;
        break;
      case Span::Style::code:
        out += "`" + body + "`";
        break;
      case Span::Style::strong:
        out += "**" + body + "**";
        break;
    }
  }
  return out;
}

std::string markdown_table(const Table& table) {
  std::string out = "|";
  for (const auto& column : table.columns) out += " " + column.header + " |";
  out += "\n|";
  for (const auto& column : table.columns) out += column.numeric ? "---:|" : "---|";
  out += "\n";
  for (const auto& row : table.rows) {
    out += "|";
    for (const auto& cell : row) out += " " + markdown_text(cell, true) + " |";
    out += "\n";
  }
  return out;
}

struct MarkdownBlock {
  std::string operator()(const Heading& heading) const {
    return std::string(static_cast<std::size_t>(heading.level), '#') + " " + heading.text + "\n";
  }
  std::string operator()(const Paragraph& paragraph) const { return markdown_text(paragraph.text, false) + "\n"; }
  std::string operator()(const Note& note) const { return "> " + note.text + "\n"; }
  // A list, so that each stays on a line of its own once rendered.
  std::string operator()(const Lines& lines) const {
    std::string out;
    for (const auto& line : lines.lines) out += "- " + markdown_text(line, false) + "\n";
    return out;
  }
  std::string operator()(const List& list) const {
    std::string out = "**" + list.title + "**\n\n";
    for (const auto& item : list.items) out += "- " + markdown_text(item, false) + "\n";
    return out;
  }
  std::string operator()(const Table& table) const { return markdown_table(table); }
  std::string operator()(const Figure& figure) const {
    return figure.as_table.empty() ? "" : markdown_table(figure.as_table.front());
  }
};

}  // namespace

std::string to_markdown(const Document& document) {
  std::string out = "# " + document.title + "\n";
  for (const auto& block : document.blocks) {
    const std::string text = std::visit(MarkdownBlock{}, block);
    if (!text.empty()) out += "\n" + text;
  }
  return out;
}

}  // namespace wcp::render::markup
