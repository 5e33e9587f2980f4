#pragma once
// Wrapping text to a terminal's width, so a person's screen holds the output without a
// horizontal scroll. Columns count code points: the output has "≈", "—" and "×".
#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace wcp::render {

// What fits on one screen line.
constexpr std::size_t kScreenColumns = 100;

// How many columns `text` takes (UTF-8 code points; every one is taken to be one column wide).
std::size_t columns(std::string_view text);

// `text` as lines of at most `width` columns: the first starts with `first_prefix`, the rest with
// `prefix`. Breaks at spaces; a word longer than a line (a test id, a path) breaks
// after a "::" or "/", and a part of it with none overflows the line rather than being cut.
std::vector<std::string> wrap(std::string_view text, std::size_t width, std::string_view first_prefix,
                              std::string_view prefix);

// `text` wrapped to kScreenColumns, one line each, onto `out`.
void print_wrapped(std::string_view text, std::string_view first_prefix, std::string_view prefix, std::ostream& out);
// A line that fits is printed as it is (its aligned columns kept); a longer one is wrapped, its
// continuation lines starting with `prefix`.
void print_fitted(std::string_view line, std::string_view prefix, std::ostream& out);

}  // namespace wcp::render
