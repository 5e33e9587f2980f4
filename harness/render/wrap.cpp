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

// Byte offsets just after each "::" or "/" of `word` (not its end, nor inside a leading "../"
// run, which stays with the name it leads to): where a test id or path may break.
std::vector<std::size_t> name_boundaries(std::string_view word) {
  std::vector<std::size_t> boundaries;
  std::size_t leading = 0;
  while (word.substr(leading).starts_with("../")) leading += 3;
  for (std::size_t at = leading; at < word.size(); ++at) {
    std::size_t after = 0;
    if (word[at] == '/')
      after = at + 1;
    else if (word.substr(at).starts_with("::"))
      after = at + 2;
    if (after == 0) continue;
    if (after < word.size()) boundaries.push_back(after);
    at = after - 1;
  }
  return boundaries;
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
      // Longer than a whole line: break it after the last "::" or "/" that fits, so that a test
      // id or a path is never cut inside a name. A part with no such break in reach starts a
      // fresh line, and overflows it only when longer than a whole line.
      const std::size_t limit = bytes_of_columns(word, room);
      const auto boundaries = name_boundaries(word);
      std::size_t cut = 0;
      for (const std::size_t boundary : boundaries) {
        if (boundary <= limit) cut = boundary;
      }
      if (cut == 0 && line_has_word) {
        lines.emplace_back(prefix);
        line_has_word = false;
        continue;
      }
      if (cut == 0) cut = boundaries.empty() ? word.size() : boundaries.front();
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
