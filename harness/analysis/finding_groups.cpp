#include "analysis/finding_groups.h"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <string>
#include <string_view>

namespace wcp::analysis {
namespace {

constexpr std::string_view kModulePlaceholder = "<module>";
constexpr std::string_view kNumberPlaceholder = "<N>";

// A fix split where it may differ per module: the text between numbers (with the finding's own
// module written as a placeholder, since module names carry hashes with digits) and the numbers.
struct FixShape {
  std::vector<std::string> text;     // text.size() == numbers.size() + 1
  std::vector<std::string> numbers;  // digit runs, in order
};

std::string with_module_abstracted(std::string fix, const std::string& module) {
  if (module.empty()) return fix;
  for (auto at = fix.find(module); at != std::string::npos; at = fix.find(module, at + kModulePlaceholder.size())) {
    fix.replace(at, module.size(), kModulePlaceholder);
  }
  return fix;
}

FixShape shape_of(const std::string& fix) {
  FixShape shape;
  shape.text.emplace_back();
  for (std::size_t at = 0; at < fix.size();) {
    if (std::isdigit(static_cast<unsigned char>(fix[at]))) {
      std::size_t end = at;
      while (end < fix.size() && std::isdigit(static_cast<unsigned char>(fix[end]))) ++end;
      shape.numbers.push_back(fix.substr(at, end - at));
      shape.text.emplace_back();
      at = end;
    } else {
      shape.text.back() += fix[at++];
    }
  }
  return shape;
}

FixShape shape_of(const Finding& finding) {
  return shape_of(with_module_abstracted(finding.fix, finding.module));
}

// "10, 30 and 21": each distinct value once, in the members' order.
std::string listed(const std::vector<std::string>& values) {
  std::vector<std::string> distinct;
  for (const auto& value : values) {
    if (std::find(distinct.begin(), distinct.end(), value) == distinct.end()) distinct.push_back(value);
  }
  std::string text = distinct.front();
  for (std::size_t at = 1; at < distinct.size(); ++at)
    text += (at + 1 == distinct.size() ? " and " : ", ") + distinct[at];
  return text;
}

// One text that holds for every member: theirs when they agree; when they differ in one number
// only, with that number's values listed; otherwise "" (two numbers that vary would list values
// whose pairing the reader cannot see, and a module name carries digits of its hash).
std::string common_text(const std::vector<std::string>& texts) {
  if (texts.empty()) return "";
  if (std::all_of(texts.begin(), texts.end(), [&](const std::string& text) { return text == texts.front(); }))
    return texts.front();
  std::vector<FixShape> shapes;
  for (const auto& text : texts) {
    shapes.push_back(shape_of(text));
    if (shapes.back().text != shapes.front().text) return "";  // so every shape has as many numbers
  }
  std::vector<std::size_t> varying;
  for (std::size_t position = 0; position < shapes.front().numbers.size(); ++position) {
    for (const auto& shape : shapes) {
      if (shape.numbers[position] != shapes.front().numbers[position]) {
        varying.push_back(position);
        break;
      }
    }
  }
  if (varying.size() != 1) return "";
  // Only a number of its own (a line, a count) is listed; one inside a name ("make_10__locals__k",
  // a hash) would be listed as a broken name.
  const auto part_of_a_name = [](const std::string& text, bool at_end) {
    if (text.empty()) return false;
    const auto next = static_cast<unsigned char>(at_end ? text.back() : text.front());
    return std::isalnum(next) || next == '_';
  };
  const FixShape& shape = shapes.front();
  if (part_of_a_name(shape.text[varying.front()], true) || part_of_a_name(shape.text[varying.front() + 1], false))
    return "";
  std::vector<std::string> values;
  for (const auto& shape : shapes) values.push_back(shape.numbers[varying.front()]);
  const FixShape& first = shape;
  std::string text = first.text.front();
  for (std::size_t position = 0; position < first.numbers.size(); ++position) {
    text += position == varying.front() ? listed(values) : first.numbers[position];
    text += first.text[position + 1];
  }
  return text;
}

bool same_owner(const std::optional<ModuleOwnership>& a, const std::optional<ModuleOwnership>& b) {
  if (a.has_value() != b.has_value()) return false;
  // Whose code, not where in it: modules Warp made from two of the user's factories are one owner.
  return !a || (a->owner == b->owner && a->generator == b->generator && a->package == b->package &&
                a->generated == b->generated);
}

// A group under construction: its members' shapes decide which numbers differ.
struct OpenGroup {
  FindingGroup group;
  std::vector<std::string> text;                  // the shared text between the numbers
  std::vector<std::vector<std::string>> numbers;  // per member
  std::vector<std::string> fixes;                 // per member, verbatim
  std::vector<std::string> headlines;             // per member
  std::vector<std::string> short_fixes;           // per member
};

bool belongs(const OpenGroup& open, const Finding& finding, const FixShape& shape) {
  return open.group.mechanism == finding.mechanism && same_owner(open.group.owner, finding.owner) &&
         open.text == shape.text;
}

void close(OpenGroup& open) {
  FindingGroup& group = open.group;
  group.headline = common_text(open.headlines);
  group.short_fix = common_text(open.short_fixes);
  const bool all_same = std::all_of(open.fixes.begin(), open.fixes.end(),
                                    [&](const std::string& fix) { return fix == open.fixes.front(); });
  group.fixes_agree = all_same;
  if (all_same) {
    group.fix = open.fixes.front();
    return;
  }
  std::vector<bool> varies(open.text.size() - 1, false);
  for (std::size_t position = 0; position < varies.size(); ++position) {
    for (const auto& numbers : open.numbers)
      varies[position] = varies[position] || numbers[position] != open.numbers.front()[position];
  }
  group.fix = open.text.front();
  for (std::size_t position = 0; position < varies.size(); ++position) {
    group.fix += varies[position] ? std::string(kNumberPlaceholder) : open.numbers.front()[position];
    group.fix += open.text[position + 1];
  }
  for (std::size_t member = 0; member < group.members.size(); ++member) {
    for (std::size_t position = 0; position < varies.size(); ++position) {
      if (varies[position]) group.members[member].fix_values.push_back(open.numbers[member][position]);
    }
  }
}

}  // namespace

std::vector<FindingGroup> group_findings(const std::vector<Finding>& findings) {
  std::vector<OpenGroup> open;
  for (std::size_t index = 0; index < findings.size(); ++index) {
    const Finding& finding = findings[index];
    FixShape shape = shape_of(finding);
    auto found = std::find_if(open.begin(), open.end(), [&](const OpenGroup& g) { return belongs(g, finding, shape); });
    if (found == open.end()) {
      OpenGroup fresh;
      fresh.group.mechanism = finding.mechanism;
      fresh.group.owner = finding.owner;
      fresh.group.cost_basis = finding.cost_basis;
      fresh.text = std::move(shape.text);
      open.push_back(std::move(fresh));
      found = std::prev(open.end());
    }
    FindingGroup& group = found->group;
    group.cause = std::max(group.cause, finding.cause);  // the enum runs from most to least established
    group.members.push_back({index,
                             finding.module,
                             finding.cost_ms,
                             finding.cost_estimated && finding.cost_ms,
                             {},
                             finding.headline,
                             finding.short_fix,
                             finding.modules.empty() && !finding.module.empty()
                                 ? std::vector<std::string>{finding.module}
                                 : finding.modules});
    found->numbers.push_back(std::move(shape.numbers));
    found->fixes.push_back(finding.fix);
    found->headlines.push_back(finding.headline);
    found->short_fixes.push_back(finding.short_fix);
    if (finding.cost_basis != group.cost_basis) group.cost_basis.clear();
    if (finding.cost_ms) {
      group.total_cost_ms = group.total_cost_ms.value_or(0.0) + *finding.cost_ms;
      group.cost_estimated = group.cost_estimated || finding.cost_estimated;
    } else {
      ++group.costs_unknown;
    }
  }
  std::vector<FindingGroup> groups;
  groups.reserve(open.size());
  for (auto& group : open) {
    close(group);
    groups.push_back(std::move(group.group));
  }
  return groups;
}

}  // namespace wcp::analysis
