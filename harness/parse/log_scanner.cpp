#include "parse/log_scanner.h"

#include <string.h>  // memmem (GNU)
#include <cstring>
#include <type_traits>

#include "parse/log_line.h"

namespace wcp::parse {
namespace {

// Warp's lines are short; anything longer is application output we need not keep whole.
constexpr std::size_t kMaxLineBytes = 64 * 1024;
constexpr std::string_view kFindFailure = "Failed to find ";
constexpr std::size_t kMaxFindFailures = 100;

std::string_view enclosing_line(std::string_view region, std::size_t at) {
  const auto begin = region.rfind('\n', at);
  const auto start = begin == std::string_view::npos ? 0 : begin + 1;
  auto end = region.find('\n', at);
  if (end == std::string_view::npos) end = region.size();
  return region.substr(start, end - start);
}

}  // namespace

void LogScanner::feed(std::string_view chunk) {
  facts_.bytes += chunk.size();
  if (!partial_.empty() || skipping_overlong_) {
    const auto newline = chunk.find('\n');
    const auto piece = chunk.substr(0, newline);
    if (!skipping_overlong_) {
      partial_.append(piece.substr(0, kMaxLineBytes - std::min(partial_.size(), kMaxLineBytes)));
    }
    if (newline == std::string_view::npos) {
      if (partial_.size() >= kMaxLineBytes) {
        skipping_overlong_ = true;
        partial_.clear();
      }
      return;
    }
    if (!skipping_overlong_) {
      note_find_failures(partial_);
      on_line(partial_);
    } else {
      ++facts_.lines;
    }
    partial_.clear();
    skipping_overlong_ = false;
    chunk.remove_prefix(newline + 1);
  }
  const auto last_newline = chunk.rfind('\n');
  if (last_newline != std::string_view::npos) {
    const auto complete = chunk.substr(0, last_newline + 1);
    note_find_failures(complete);
    scan_complete_lines(complete);
    chunk.remove_prefix(last_newline + 1);
  }
  if (chunk.size() >= kMaxLineBytes) {
    skipping_overlong_ = true;
  } else {
    partial_.assign(chunk);
  }
}

void LogScanner::finish() {
  if (!partial_.empty()) {
    note_find_failures(partial_);
    on_line(partial_);
  }
  partial_.clear();
  skipping_overlong_ = false;
}

void LogScanner::scan_complete_lines(std::string_view region) {
  const char* cursor = region.data();
  const char* const end = region.data() + region.size();
  while (cursor < end) {
    const auto* newline = static_cast<const char*>(std::memchr(cursor, '\n', static_cast<std::size_t>(end - cursor)));
    if (newline == nullptr) newline = end;
    on_line(std::string_view(cursor, static_cast<std::size_t>(newline - cursor)));
    cursor = newline + 1;
  }
}

void LogScanner::note_find_failures(std::string_view region) {
  // One memmem pass over the whole region is far cheaper than a search per line.
  std::size_t offset = 0;
  while (offset < region.size() && facts_.find_failures.size() < kMaxFindFailures) {
    const void* hit =
        ::memmem(region.data() + offset, region.size() - offset, kFindFailure.data(), kFindFailure.size());
    if (hit == nullptr) return;
    const auto at = static_cast<std::size_t>(static_cast<const char*>(hit) - region.data());
    std::string line(strip_terminal_noise(enclosing_line(region, at), clean_storage_));
    facts_.find_failures.push_back(std::move(line));
    const auto next = region.find('\n', at);
    if (next == std::string_view::npos) return;
    offset = next + 1;
  }
}

void LogScanner::on_line(std::string_view raw) {
  ++facts_.lines;
  std::string_view rest = strip_terminal_noise(raw, clean_storage_);
  while (!rest.empty()) {
    const auto next = next_message_start(rest);
    on_message(rest.substr(0, next));
    rest = next == std::string_view::npos ? std::string_view{} : rest.substr(next);
  }
}

void LogScanner::on_message(std::string_view line) {
  const LogLine parsed = parse_line(line);
  std::visit(
      [this](const auto& item) {
        using Item = std::decay_t<decltype(item)>;
        if constexpr (std::is_same_v<Item, ModuleLoadLine>) {
          // A cached load compiled nothing: the native timers before it belong to no build.
          const auto native_ms = item.status != LoadStatus::cached ? pending_native_ms_ : std::nullopt;
          facts_.module_events.push_back(
              loaded_module({std::string(item.name), std::string(item.hash), std::string(item.device), item.block_dim},
                            item.ms, item.status, native_ms, pending_pch_, LoadTimer::warp));
          pending_native_ms_.reset();
          pending_pch_ = false;
        } else if constexpr (std::is_same_v<Item, NativeCompileLine>) {
          facts_.native_compile_ms += item.ms;
          ++facts_.native_timers;
          pending_native_ms_ = pending_native_ms_.value_or(0.0) + item.ms;
        } else if constexpr (std::is_same_v<Item, HashChangedLine>) {
          facts_.hash_changes.push_back(
              {std::string(item.module), std::string(item.old_hash), std::string(item.new_hash)});
        } else if constexpr (std::is_same_v<Item, PchGeneratedLine>) {
          facts_.pch_generated = true;
          pending_pch_ = true;
        } else if constexpr (std::is_same_v<Item, WarpInitLine>) {
          facts_.warp_version = item.version;
        }
      },
      parsed);
}

LogFacts merge(const LogFacts& first, const LogFacts& second) {
  LogFacts out = first;
  out.module_events.insert(out.module_events.end(), second.module_events.begin(), second.module_events.end());
  out.native_compile_ms += second.native_compile_ms;
  out.native_timers += second.native_timers;
  out.hash_changes.insert(out.hash_changes.end(), second.hash_changes.begin(), second.hash_changes.end());
  out.find_failures.insert(out.find_failures.end(), second.find_failures.begin(), second.find_failures.end());
  if (out.warp_version.empty()) out.warp_version = second.warp_version;
  out.pch_generated = out.pch_generated || second.pch_generated;
  out.bytes += second.bytes;
  out.lines += second.lines;
  return out;
}

}  // namespace wcp::parse
