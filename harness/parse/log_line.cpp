#include "parse/log_line.h"

#include <charconv>
#include <cstring>

namespace wcp::parse {
namespace {

bool consume(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

std::string_view skip_spaces(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

std::optional<double> consume_number(std::string_view& text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{}) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

bool is_hex(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex) return false;
  }
  return true;
}

// "took <ms> ms" then optional "  (status)". Returns false when the tail is not a timer end.
bool parse_took(std::string_view text, double& ms, std::string_view& status) {
  if (!consume(text, "took ")) return false;
  const auto value = consume_number(text);
  if (!value || !consume(text, " ms")) return false;
  ms = *value;
  text = skip_spaces(text);
  status = {};
  if (consume(text, "(")) {
    const auto close = text.find(')');
    if (close == std::string_view::npos) return false;
    status = text.substr(0, close);
  }
  return true;
}

LogLine parse_module_line(std::string_view text) {
  // text follows "Module ".
  static constexpr std::string_view kLoadOn = " load on device '";
  const auto load_at = text.find(kLoadOn);
  if (load_at == std::string_view::npos) return {};
  ModuleLoadLine line;
  const std::string_view head = text.substr(0, load_at);
  const auto space = head.rfind(' ');
  if (space != std::string_view::npos && is_hex(head.substr(space + 1))) {
    line.name = head.substr(0, space);
    line.hash = head.substr(space + 1);
  } else {
    line.name = head;  // strip_hash modules print no hash
  }
  if (line.name.empty()) return {};
  text.remove_prefix(load_at + kLoadOn.size());
  const auto quote = text.find('\'');
  if (quote == std::string_view::npos) return {};
  line.device = text.substr(0, quote);
  text = skip_spaces(text.substr(quote + 1));
  if (consume(text, "(block_dim=")) {
    int block_dim = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), block_dim);
    if (error != std::errc{} || end == text.data() + text.size() || *end != ')') return {};
    line.block_dim = block_dim;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()) + 1);
    text = skip_spaces(text);
  }
  std::string_view status;
  if (!parse_took(text, line.ms, status)) return {};  // the "..." start line, or noise
  if (status == "compiled") {
    line.status = LoadStatus::compiled;
  } else if (status == "cached") {
    line.status = LoadStatus::cached;
  } else if (status == "error") {
    line.status = LoadStatus::error;
  } else {
    return {};
  }
  return line;
}

LogLine parse_compile_line(std::string_view text) {
  // text follows "Compile ".
  NativeCompileLine line;
  if (consume(text, "x86 ")) {
    line.cuda = false;
  } else if (consume(text, "CUDA ")) {
    line.cuda = true;
    if (consume(text, "(")) {
      const auto close = text.find(") ");
      if (close == std::string_view::npos) return {};
      line.details = text.substr(0, close);
      text.remove_prefix(close + 2);
    }
  } else {
    return {};
  }
  std::string_view status;
  if (!parse_took(text, line.ms, status)) return {};
  return line;
}

LogLine parse_hash_changed(std::string_view text) {
  // text follows "[Module.load] Module hash changed, recompiling: ".
  const auto open = text.rfind(" (");
  if (open == std::string_view::npos || !text.ends_with(')')) return {};
  HashChangedLine line;
  line.module = text.substr(0, open);
  std::string_view hashes = text.substr(open + 2, text.size() - open - 3);
  const auto arrow = hashes.find(" -> ");
  if (arrow == std::string_view::npos) return {};
  line.old_hash = hashes.substr(0, arrow);
  line.new_hash = hashes.substr(arrow + 4);
  return line;
}

}  // namespace

LogLine parse_line(std::string_view line) {
  line = skip_spaces(line);
  if (line.size() < 6) return {};
  switch (line.front()) {
    case 'M':
      if (consume(line, "Module ")) return parse_module_line(line);
      return {};
    case 'C':
      if (consume(line, "Compile ")) return parse_compile_line(line);
      return {};
    case '[':
      if (consume(line, "[Module.load] Module hash changed, recompiling: ")) return parse_hash_changed(line);
      return {};
    case 'W':
      if (consume(line, "Warp: Generating precompiled header")) return PchGeneratedLine{};
      if (consume(line, "Warp ") && line.ends_with(" initialized:")) {
        return WarpInitLine{line.substr(0, line.size() - std::string_view(" initialized:").size())};
      }
      return {};
    default:
      return {};
  }
}

std::size_t next_message_start(std::string_view line) {
  static constexpr std::string_view kStarts[] = {"Module ", "Compile ", "Warp "};
  for (std::size_t at = 1; at < line.size(); ++at) {
    const char c = line[at];
    if (c != 'M' && c != 'C' && c != 'W') continue;
    bool starts = false;
    for (const auto start : kStarts) starts = starts || line.substr(at).starts_with(start);
    if (!starts) continue;
    std::string_view before = line.substr(0, at);
    while (!before.empty() && (before.back() == ' ' || before.back() == '\t')) before.remove_suffix(1);
    if (before.ends_with(" ms") || before.ends_with(")") || before.ends_with("...")) return at;
  }
  return std::string_view::npos;
}

std::string_view strip_terminal_noise(std::string_view line, std::string& storage) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (std::memchr(line.data(), '\x1b', line.size()) == nullptr) return line;
  storage.clear();
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\x1b') {
      storage.push_back(line[i]);
      continue;
    }
    // CSI sequence: ESC '[' parameters... final byte in 0x40-0x7e.
    if (i + 1 < line.size() && line[i + 1] == '[') {
      i += 2;
      while (i < line.size() && !(line[i] >= 0x40 && line[i] <= 0x7e)) ++i;
    }
  }
  return storage;
}

}  // namespace wcp::parse
