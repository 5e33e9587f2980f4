#include "run/output_tail.h"

namespace wcp {

void OutputTail::append(std::string_view bytes) {
  if (bytes.size() >= capacity_) {
    buffer_.assign(bytes.substr(bytes.size() - capacity_));
    return;
  }
  buffer_.append(bytes);
  if (buffer_.size() > 2 * capacity_) buffer_.erase(0, buffer_.size() - capacity_);
}

namespace {

// Length of the valid UTF-8 sequence at `at`, or 0 when it is not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t length = 0;
  if (lead >= 0xc2 && lead <= 0xdf)
    length = 2;
  else if (lead >= 0xe0 && lead <= 0xef)
    length = 3;
  else if (lead >= 0xf0 && lead <= 0xf4)
    length = 4;
  else
    return 0;
  if (at + length > text.size()) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((static_cast<unsigned char>(text[at + i]) & 0xc0) != 0x80) return 0;
  }
  // The second byte's range rules out overlong forms, UTF-16 surrogates (ED A0..BF) and code
  // points above U+10FFFF, which are not UTF-8 either (RFC 3629 table).
  const auto second = static_cast<unsigned char>(text[at + 1]);
  if ((lead == 0xe0 && second < 0xa0) || (lead == 0xed && second > 0x9f) || (lead == 0xf0 && second < 0x90) ||
      (lead == 0xf4 && second > 0x8f)) {
    return 0;
  }
  return length;
}

}  // namespace

std::string OutputTail::text() const {
  const std::string_view newest =
      buffer_.size() > capacity_ ? std::string_view(buffer_).substr(buffer_.size() - capacity_) : buffer_;
  std::string shown;
  shown.reserve(newest.size());
  for (std::size_t i = 0; i < newest.size(); ++i) {
    const auto c = static_cast<unsigned char>(newest[i]);
    if ((c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t') {
      shown.push_back(static_cast<char>(c));
    } else if (const auto length = utf8_sequence_length(newest, i); length > 0) {
      shown.append(newest.substr(i, length));
      i += length - 1;
    } else {
      // NULs, control bytes and broken UTF-8 become '?', so neither a terminal nor a JSON
      // report ever receives them.
      shown.push_back('?');
    }
  }
  return shown;
}

std::string last_line(std::string_view text) {
  const auto end = text.find_last_not_of("\r\n \t");
  if (end == std::string_view::npos) return {};
  const auto newline = text.rfind('\n', end);
  const auto start = newline == std::string_view::npos ? 0 : newline + 1;
  return std::string(text.substr(start, end - start + 1));
}

}  // namespace wcp
