#pragma once
// The markup layer: a result written once as a document of sections (headings, paragraphs,
// lists, tables, figures) that markup_markdown.h and markup_html.h lay out. A result's document
// says what is shown and in which order; the writers say only how.
#include <string>
#include <variant>
#include <vector>

namespace wcp::render::markup {

// A run of inline text. Writers escape it for their format.
struct Span {
  enum class Style { plain, code, strong };
  Style style = Style::plain;
  std::string text;
};
using Text = std::vector<Span>;

inline Span plain(std::string text) {
  return {Span::Style::plain, std::move(text)};
}
inline Span code(std::string text) {
  return {Span::Style::code, std::move(text)};
}
inline Span strong(std::string text) {
  return {Span::Style::strong, std::move(text)};
}

struct Heading {
  int level = 2;
  std::string text;
};

struct Paragraph {
  Text text;
  std::string html_class;  // how the page styles it ("verdict IMPROVED", "unavailable"); "" for none
};

// An aside on what precedes it (a note on the verdict).
struct Note {
  std::string text;
};

// A few short lines kept apart (the commands compared).
struct Lines {
  std::vector<Text> lines;
};

// A titled list (a group of mechanisms).
struct List {
  std::string title;
  std::vector<Text> items;
};

struct Table {
  struct Column {
    std::string header;
    bool numeric = false;  // right-aligned
  };
  std::vector<Column> columns;
  std::vector<std::vector<Text>> rows;
};

// A chart (SVG), drawn where the format can draw it; elsewhere its table, when it has one.
struct Figure {
  std::string svg;
  std::vector<Table> as_table;  // none, or the one table that stands in for the chart
};

using Block = std::variant<Heading, Paragraph, Note, Lines, List, Table, Figure>;

struct Document {
  std::string title;
  std::vector<Block> blocks;
};

}  // namespace wcp::render::markup
