#pragma once
// One stream of a program's output, kept for comparison in bounded memory however much it
// prints: each line masked (run/output_masks.h) and folded into a hash, the first lines kept as
// text so that a difference can be shown.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/output_check.h"
#include "run/output_masks.h"

namespace wcp {

class OutputDigest {
 public:
  static constexpr std::size_t kKeptLines = 400;
  static constexpr std::size_t kLongestLine = 64 * 1024;  // longer lines are compared in full but kept cut

  explicit OutputDigest(OutputMasks masks);

  void feed(std::string_view chunk);
  void finish();  // a last line without '\n' still counts

  std::uint64_t lines() const { return lines_; }  // compared lines (ignored ones left out)
  std::uint64_t ignored() const { return ignored_; }
  std::uint64_t hash() const { return hash_; }
  // The lines as a multiset (a sum of per-line hashes): equal for the same lines in any order.
  std::uint64_t unordered_hash() const { return unordered_hash_; }
  const std::vector<std::string>& kept() const { return kept_; }  // the first compared lines, masked

 private:
  void on_line(std::string_view line);

  OutputMasks masks_;
  std::string partial_;
  bool partial_overlong_ = false;
  std::uint64_t overlong_hash_ = 0;
  std::uint64_t lines_ = 0;
  std::uint64_t ignored_ = 0;
  std::uint64_t hash_;
  std::uint64_t unordered_hash_ = 0;
  std::vector<std::string> kept_;
};

// Where `actual` first differs from `expected`; `reordered` when both hold the same lines in
// another order.
std::optional<OutputDifference> first_difference(const OutputDigest& expected, const OutputDigest& actual);

}  // namespace wcp
