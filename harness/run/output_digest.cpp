#include "run/output_digest.h"

#include <algorithm>

namespace wcp {
namespace {

// FNV-1a, 64 bits: equality of two outputs of the same program, not a defence against anyone.
constexpr std::uint64_t kOffset = 14695981039346656037ULL;
constexpr std::uint64_t kPrime = 1099511628211ULL;

std::uint64_t fold(std::uint64_t hash, std::string_view bytes) {
  for (const char c : bytes) hash = (hash ^ static_cast<unsigned char>(c)) * kPrime;
  return hash;
}

}  // namespace

OutputDigest::OutputDigest(OutputMasks masks) : masks_(std::move(masks)), hash_(kOffset) {}

void OutputDigest::feed(std::string_view chunk) {
  while (!chunk.empty()) {
    const auto newline = chunk.find('\n');
    const std::string_view piece = chunk.substr(0, newline);
    if (partial_overlong_) {
      overlong_hash_ = fold(overlong_hash_, piece);
    } else if (partial_.size() + piece.size() > kLongestLine) {
      // A line past the bound: no mask can apply to a cut line, so it is compared raw.
      partial_overlong_ = true;
      overlong_hash_ = fold(fold(kOffset, partial_), piece);
      partial_.resize(std::min(partial_.size(), kLongestLine));
    } else {
      partial_.append(piece);
    }
    if (newline == std::string_view::npos) return;
    on_line(partial_);
    partial_.clear();
    partial_overlong_ = false;
    chunk.remove_prefix(newline + 1);
  }
}

void OutputDigest::finish() {
  if (!partial_.empty() || partial_overlong_) on_line(partial_);
  partial_.clear();
  partial_overlong_ = false;
}

void OutputDigest::on_line(std::string_view raw) {
  std::string_view line = raw;
  if (line.ends_with('\r')) line.remove_suffix(1);
  if (!partial_overlong_ && is_ignored(line, masks_)) {
    ++ignored_;
    return;
  }
  std::string masked;
  if (partial_overlong_) {
    masked = "<line of more than 64 KiB, hash " + std::to_string(overlong_hash_) + ">";
  } else {
    masked = mask_line(line, masks_);
  }
  hash_ = fold(hash_, masked);
  hash_ = fold(hash_, "\n");
  unordered_hash_ += fold(kOffset, masked);  // wraps: a sum modulo 2^64 is order-free
  ++lines_;
  if (kept_.size() < kKeptLines) kept_.push_back(std::move(masked));
}

std::optional<OutputDifference> first_difference(const OutputDigest& expected, const OutputDigest& actual) {
  if (expected.lines() == actual.lines() && expected.hash() == actual.hash()) return std::nullopt;
  const auto& a = expected.kept();
  const auto& b = actual.kept();
  std::size_t index = 0;
  while (index < a.size() && index < b.size() && a[index] == b[index]) ++index;
  OutputDifference difference;
  difference.line = index + 1;
  if (index < a.size()) difference.expected = a[index];
  if (index < b.size()) difference.actual = b[index];
  difference.expected_ended = index >= expected.lines();
  difference.actual_ended = index >= actual.lines();
  difference.reordered = expected.lines() == actual.lines() && expected.unordered_hash() == actual.unordered_hash();
  return difference;
}

}  // namespace wcp
