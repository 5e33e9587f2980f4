#include "io/suggestion.h"

#include <algorithm>

namespace wcp {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j]: the distance between a's first i and b's first j characters, in rows of b.size()+1.
  const std::size_t width = b.size() + 1;
  std::vector<std::size_t> d((a.size() + 1) * width);
  for (std::size_t i = 0; i <= a.size(); ++i) d[i * width] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      std::size_t best =
          std::min({d[(i - 1) * width + j] + 1, d[i * width + j - 1] + 1, d[(i - 1) * width + j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        best = std::min(best, d[(i - 2) * width + j - 2] + 1);
      }
      d[i * width + j] = best;
    }
  }
  return d[a.size() * width + b.size()];
}

std::optional<std::string> closest_name(std::string_view given, const std::vector<std::string_view>& known) {
  const std::size_t limit = std::max<std::size_t>(1, given.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const auto name : known) {
    const std::size_t distance = edit_distance(given, name);
    if (distance < best_distance) {
      best_distance = distance;
      best = std::string(name);
    }
  }
  return best;
}

std::string did_you_mean(std::string_view given, const std::vector<std::string_view>& known) {
  const auto name = closest_name(given, known);
  return name ? " (did you mean '" + *name + "'?)" : "";
}

}  // namespace wcp
