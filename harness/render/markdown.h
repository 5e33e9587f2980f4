#pragma once
// Markdown helpers shared by the writers that produce Markdown.
#include <string>

namespace wcp::render {

// Table cells must stay on one line and must not close the cell early.
inline std::string markdown_cell(const std::string& text) {
  std::string escaped;
  for (char c : text) {
    if (c == '|') escaped += "\\|";
    else if (c == '\n') escaped += ' ';
    else escaped += c;
  }
  return escaped;
}

}  // namespace wcp::render
