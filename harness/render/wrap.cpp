#include "render/wrap.h"

#include <algorithm>
#include <ostream>

namespace wcp::render {
namespace {

bool continuation_byte(char byte) {
  return (static_cast<unsigned char>(byte) & 0xC0U) == 0x80U;
}

// The byte length of the first `wanted` columns of `text`, never splitting a code point.
std::size_t bytes_of_columns(std::string_view text, std::size_t wanted) {
  std::size_t seen = 0;
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (continuation_byte(text[at])) continue;
    if (seen == wanted) return at;
    ++seen;
  }
  return text.size();
}

}  // namespace

std::size_t columns(std::string_view text) {
  std::size_t count = 0;
  for (const char byte : text) count += continuation_byte(byte) ? 0 : 1;
  return count;
}

std::vector<std::string> wrap(std::string_view text, std::size_t width, std::string_view first_prefix,
                              std::string_view prefix) {
  std::vector<std::string> lines{std::string(first_prefix)};
  bool line_has_word = false;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text[at] == ' ') {
      ++at;
      continue;
    }
    const std::size_t end = std::min(text.find(' ', at), text.size());
    std::string_view word = text.substr(at, end - at);
    at = end;
    while (!word.empty()) {
      const std::size_t used = columns(lines.back()) + (line_has_word ? 1 : 0);
      const std::size_t room = width > used ? width - used : 0;
      if (columns(word) <= room) {
        if (line_has_word) lines.back() += ' ';
        lines.back() += word;
        line_has_word = true;
        break;
      }
      const std::size_t fresh_room = width > columns(prefix) ? width - columns(prefix) : 0;
      if (line_has_word && (columns(word) <= fresh_room || room == 0)) {
        lines.emplace_back(prefix);
        line_has_word = false;
        continue;
      }
      // Longer than a whole line: cut it where this line ends (at least one column, so it ends).
      const std::size_t cut = bytes_of_columns(word, std::max<std::size_t>(room, 1));
      if (line_has_word) lines.back() += ' ';
      lines.back() += word.substr(0, cut);
      line_has_word = true;
      word.remove_prefix(cut);
      if (!word.empty()) {
        lines.emplace_back(prefix);
        line_has_word = false;
      }
    }
  }
  return lines;
}

void print_wrapped(std::string_view text, std::string_view first_prefix, std::string_view prefix, std::ostream& out) {
  for (const auto& line : wrap(text, kScreenColumns, first_prefix, prefix)) out << line << '\n';
}

void print_fitted(std::string_view line, std::string_view prefix, std::ostream& out) {
  if (columns(line) <= kScreenColumns) {
    out << line << '\n';
  } else {
    print_wrapped(line, "", prefix, out);
  }
}

}  // namespace wcp::render
