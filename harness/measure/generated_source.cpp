#include "measure/generated_source.h"

#include <algorithm>
#include <cctype>

namespace wcp::measure {
namespace {

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool is_hex8(std::string_view text) {
  return text.size() == 8 &&
         std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// The identifier that ends right before `at` in `line`.
std::string identifier_before(std::string_view line, std::size_t at) {
  std::size_t begin = at;
  while (begin > 0 && is_identifier_char(line[begin - 1])) --begin;
  return std::string(line.substr(begin, at - begin));
}

// The kernel name a line defines the forward entry of: `<name>_cpu_kernel_forward(` or
// `<name>_cuda_kernel_forward(` (a call has `<` or `(*dim` elsewhere, never the bare `(`).
std::optional<std::string> forward_definition(std::string_view line) {
  for (const std::string_view suffix : {"_cpu_kernel_forward(", "_cuda_kernel_forward("}) {
    if (const auto at = line.find(suffix); at != std::string_view::npos) {
      std::string name = identifier_before(line, at);
      if (!name.empty()) return name;
    }
  }
  return std::nullopt;
}

std::string key_of(const std::string& mangled) {
  const auto at = mangled.rfind('_');
  if (at != std::string::npos && at > 0 && is_hex8(std::string_view(mangled).substr(at + 1))) {
    return mangled.substr(0, at);
  }
  return mangled;  // strip_hash: the key alone
}

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// Drops the ` <L 12>` markers Warp puts after the Python line it quotes in a comment.
std::string without_line_markers(std::string_view line) {
  std::string out;
  std::size_t at = 0;
  while (at < line.size()) {
    if (line.compare(at, 3, "<L ") == 0) {
      std::size_t end = at + 3;
      while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) ++end;
      if (end > at + 3 && end < line.size() && line[end] == '>') {
        at = end + 1;
        continue;
      }
    }
    out += line[at++];
  }
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back())) != 0) out.pop_back();
  return out;
}

// `// path/to/app.py:12`, the comment Warp puts before each function.
bool is_location_comment(std::string_view line) {
  if (!line.starts_with("// ")) return false;
  const auto colon = line.rfind(':');
  if (colon == std::string_view::npos || colon + 1 == line.size()) return false;
  return std::all_of(line.begin() + static_cast<std::ptrdiff_t>(colon) + 1, line.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

class Normaliser {
 public:
  explicit Normaliser(std::vector<std::pair<std::string, std::string>> renames) : renames_(std::move(renames)) {}

  // The line as compared, or nullopt for one that is left out.
  std::optional<std::string> line(std::string_view raw) {
    if (raw.starts_with("#line ")) {
      line_directives = true;
      return std::nullopt;
    }
    if (is_location_comment(raw)) return std::nullopt;
    std::string text = without_line_markers(raw);
    if (text.empty()) return std::nullopt;
    for (const auto& [from, to] : renames_) replace_all(text, from, to);
    return text;
  }

  std::string block(const std::vector<std::string_view>& lines) {
    std::string text;
    for (const auto raw : lines) {
      if (auto kept = line(raw)) text += *kept + "\n";
    }
    return text;
  }

  bool line_directives = false;

 private:
  std::vector<std::pair<std::string, std::string>> renames_;  // mangled kernel name -> key
};

using Block = std::vector<std::string_view>;

// Top-level blocks: each ends at a line that closes at column 0 (`}`, `};`, `} // extern C`).
// In the code before the kernels a function's definition (`static ...(`, maybe after a
// `template` line) also starts a block, so the header is not taken for part of the first one.
std::vector<Block> split_blocks(const std::vector<std::string_view>& lines, std::size_t begin, std::size_t end,
                                bool split_at_definitions) {
  std::vector<Block> blocks;
  Block current;
  bool current_has_code = false;
  for (std::size_t at = begin; at < end; ++at) {
    const auto line = lines[at];
    const bool starts_definition = line.starts_with("static ") || line.starts_with("template");
    if (split_at_definitions && starts_definition && current_has_code &&
        !(current.size() > 0 && current.back().starts_with("template"))) {
      blocks.push_back(std::move(current));
      current.clear();
      current_has_code = false;
    }
    current.push_back(line);
    if (!line.empty() && !is_location_comment(line)) current_has_code = true;
    if (line.starts_with("}")) {
      blocks.push_back(std::move(current));
      current.clear();
      current_has_code = false;
    }
  }
  if (!current.empty()) blocks.push_back(std::move(current));
  return blocks;
}

// The function a block of the code before the kernels defines ("helper_0", its adjoint
// "adj_helper_0"), or "" for a block that defines none.
std::string defined_function(const Block& block) {
  for (const auto line : block) {
    if (!line.starts_with("static ")) continue;
    const auto paren = line.find('(');
    if (paren == std::string_view::npos) continue;
    return identifier_before(line, paren);
  }
  return "";
}

enum class Direction { forward, backward, unknown };

Direction direction_of(const Block& block) {
  for (const auto line : block) {
    if (line.find("_backward") != std::string_view::npos) return Direction::backward;
  }
  for (const auto line : block) {
    if (line.find("_forward") != std::string_view::npos) return Direction::forward;
  }
  return Direction::unknown;
}

}  // namespace

bool is_adjoint_function(const std::string& generated_name) {
  return generated_name.starts_with("adj_");
}

std::string function_display_name(const std::string& generated_name) {
  const std::string name = is_adjoint_function(generated_name) ? generated_name.substr(4) : generated_name;
  const auto at = name.rfind('_');
  if (at == std::string::npos || at == 0 || at + 1 == name.size()) return name;
  const bool numbered = std::all_of(name.begin() + static_cast<std::ptrdiff_t>(at) + 1, name.end(),
                                    [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
  return numbered ? name.substr(0, at) : name;
}

GeneratedSource parse_generated_source(std::string_view text) {
  const auto lines = split_lines(text);

  // Each kernel's code starts at its argument struct (CPU) or its forward entry (CUDA).
  struct KernelStart {
    std::size_t line = 0;
    std::string mangled;
  };
  std::vector<KernelStart> starts;
  std::vector<std::pair<std::string, std::string>> renames;
  for (std::size_t at = 0; at < lines.size(); ++at) {
    const auto name = forward_definition(lines[at]);
    if (!name) continue;
    if (std::any_of(starts.begin(), starts.end(), [&](const KernelStart& s) { return s.mangled == *name; })) continue;
    std::size_t begin = at;
    const std::string args_struct = "struct wp_args_" + *name + " {";
    for (std::size_t back = 0; back < at; ++back) {
      if (lines[back] == args_struct) {
        begin = back;
        break;
      }
    }
    starts.push_back({begin, *name});
    if (key_of(*name) != *name) renames.emplace_back(*name, key_of(*name));
  }
  std::sort(starts.begin(), starts.end(), [](const KernelStart& a, const KernelStart& b) { return a.line < b.line; });

  GeneratedSource source;
  Normaliser normalise(renames);
  const std::size_t prelude_end = starts.empty() ? lines.size() : starts.front().line;
  for (const auto& block : split_blocks(lines, 0, prelude_end, true)) {
    const std::string function = defined_function(block);
    if (!function.empty()) {
      source.functions[function] += normalise.block(block);
      continue;
    }
    for (const auto line : block) {
      constexpr std::string_view kBlockDim = "#define WP_TILE_BLOCK_DIM ";
      if (line.starts_with(kBlockDim)) {
        try {
          source.block_dim = std::stoi(std::string(line.substr(kBlockDim.size())));
        } catch (const std::exception&) {
          // Not a number: left unknown, and the line compared with the rest.
          source.shared += std::string(line) + "\n";
        }
        continue;
      }
      // Follows from whether any kernel uses bfloat16: the kernels' own code says that.
      if (line.starts_with("#define WP_NO_BFLOAT16")) continue;
      if (auto kept = normalise.line(line)) source.shared += *kept + "\n";
    }
  }

  for (std::size_t index = 0; index < starts.size(); ++index) {
    const std::size_t end = index + 1 < starts.size() ? starts[index + 1].line : lines.size();
    std::string forward, backward;
    // A block that names neither direction (the argument struct, `} // extern C`) belongs with
    // the one before it, so backward code switched on adds nothing to the forward code.
    Direction previous = Direction::forward;
    for (const auto& block : split_blocks(lines, starts[index].line, end, false)) {
      Direction direction = direction_of(block);
      if (direction == Direction::unknown) direction = previous;
      (direction == Direction::backward ? backward : forward) += normalise.block(block);
      previous = direction;
    }
    const std::string key = key_of(starts[index].mangled);
    source.backward = source.backward || !backward.empty();
    source.kernel_forward[key].push_back(std::move(forward));
    source.kernel_backward[key].push_back(std::move(backward));
  }
  for (auto& [key, codes] : source.kernel_forward) std::sort(codes.begin(), codes.end());
  for (auto& [key, codes] : source.kernel_backward) std::sort(codes.begin(), codes.end());
  source.line_directives = normalise.line_directives;
  return source;
}

}  // namespace wcp::measure
