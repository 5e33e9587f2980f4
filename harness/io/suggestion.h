#pragma once
// "Did you mean …" for a mistyped name (a subcommand, a budget key): the known name nearest by
// edit distance, when it is near enough to be the likely intent, as git and cargo suggest.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wcp {

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
// transpositions ("chekc" is one from "check").
std::size_t edit_distance(std::string_view a, std::string_view b);

// The nearest of `known` to `given` within max(1, given.size() / 3) edits (ties: the first
// listed), or nullopt when none is that near.
std::optional<std::string> closest_name(std::string_view given, const std::vector<std::string_view>& known);

// " (did you mean 'measure'?)", or "" without a near name: for appending to an error line.
std::string did_you_mean(std::string_view given, const std::vector<std::string_view>& known);

}  // namespace wcp
