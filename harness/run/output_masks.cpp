#include "run/output_masks.h"

#include <algorithm>
#include <array>

#include "errors.h"

namespace wcp {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_word(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// Longest first, so "ms" is tried before "s" and "seconds" before "sec".
constexpr std::array<std::string_view, 14> kUnits{"microseconds", "milliseconds", "seconds", "minutes", "second",
                                                  "minute",       "secs",         "mins",    "sec",     "min",
                                                  "ns",           "us",           "ms",      "s"};
constexpr std::string_view kMicro = "\xc2\xb5s";  // "µs" in UTF-8

// The length of a time unit at the start of `text` that ends a word, or 0.
std::size_t unit_length(std::string_view text) {
  const auto ends_word = [&text](std::size_t length) { return length == text.size() || !is_word(text[length]); };
  if (text.starts_with(kMicro) && ends_word(kMicro.size())) return kMicro.size();
  for (const auto unit : kUnits) {
    if (text.starts_with(unit) && ends_word(unit.size())) return unit.size();
  }
  return 0;
}

// The length of a number at the start of `text`: digits, an optional fraction, an optional
// exponent.
std::size_t number_length(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size() && is_digit(text[at])) ++at;
  if (at == 0) return 0;
  if (at + 1 < text.size() && text[at] == '.' && is_digit(text[at + 1])) {
    ++at;
    while (at < text.size() && is_digit(text[at])) ++at;
  }
  if (at + 1 < text.size() && (text[at] == 'e' || text[at] == 'E')) {
    std::size_t exponent = at + 1;
    if (exponent < text.size() && (text[exponent] == '-' || text[exponent] == '+')) ++exponent;
    if (exponent < text.size() && is_digit(text[exponent])) {
      while (exponent < text.size() && is_digit(text[exponent])) ++exponent;
      at = exponent;
    }
  }
  return at;
}

// The same duration again as a clock right after it, " (H:MM:SS)": pytest writes
// "in 149.17s (0:02:29)" for runs over a minute, so whether it is there depends on the time.
std::size_t clock_suffix_length(std::string_view text) {
  if (!text.starts_with(" (")) return 0;
  std::size_t at = 2;
  int groups = 0;
  while (true) {
    const std::size_t start = at;
    while (at < text.size() && is_digit(text[at])) ++at;
    if (at == start) return 0;
    ++groups;
    if (at < text.size() && text[at] == ':') {
      ++at;
      continue;
    }
    break;
  }
  return groups >= 2 && at < text.size() && text[at] == ')' ? at + 1 : 0;
}

}  // namespace

void OutputMasks::add_literal(std::string text, std::string placeholder) {
  if (text.empty()) return;
  literals.emplace_back(std::move(text), std::move(placeholder));
  std::stable_sort(literals.begin(), literals.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
}

void OutputMasks::add_ignored(const std::string& pattern, std::string_view option) {
  try {
    ignored_lines.emplace_back(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    throw UsageError(std::string(option) + ": '" + pattern + "' is not a valid regular expression (" + error.what() +
                     ")");
  }
  ignored_patterns.push_back(pattern);
}

std::string mask_durations(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  std::size_t at = 0;
  while (at < line.size()) {
    // A number starts a word: not the tail of a hash ("7933ada1s") or of a version ("1.19").
    const bool starts_word = at == 0 || (!is_word(line[at - 1]) && line[at - 1] != '.');
    const std::size_t number = starts_word ? number_length(line.substr(at)) : 0;
    if (number > 0) {
      std::size_t after = at + number;
      if (after < line.size() && line[after] == ' ') ++after;
      if (const std::size_t unit = unit_length(line.substr(after)); unit > 0) {
        out += "<duration>";
        at = after + unit + clock_suffix_length(line.substr(after + unit));
        continue;
      }
      out.append(line.substr(at, number));
      at += number;
      continue;
    }
    out.push_back(line[at]);
    ++at;
  }
  return out;
}

std::string mask_line(std::string_view line, const OutputMasks& masks) {
  std::string text(line);
  for (const auto& [literal, placeholder] : masks.literals) {
    for (auto found = text.find(literal); found != std::string::npos; found = text.find(literal, found)) {
      text.replace(found, literal.size(), placeholder);
      found += placeholder.size();
    }
  }
  return mask_durations(text);
}

bool is_ignored(std::string_view line, const OutputMasks& masks) {
  return std::any_of(masks.ignored_lines.begin(), masks.ignored_lines.end(), [&line](const std::regex& pattern) {
    return std::regex_search(line.begin(), line.end(), pattern);
  });
}

}  // namespace wcp
