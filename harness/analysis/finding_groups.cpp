#include "analysis/finding_groups.h"

#include "io/common_text.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>

namespace wcp::analysis {
namespace {

constexpr std::string_view kModulePlaceholder = "<module>";
constexpr std::string_view kNumberPlaceholder = "<N>";

std::string with_module_abstracted(std::string fix, const std::string& module) {
  if (module.empty()) return fix;
  for (auto at = fix.find(module); at != std::string::npos; at = fix.find(module, at + kModulePlaceholder.size())) {
    fix.replace(at, module.size(), kModulePlaceholder);
  }
  return fix;
}

// A fix split where it may differ per module: the text between numbers (with the finding's own
// module written as a placeholder, since module names carry hashes with digits) and the numbers.
TextShape shape_of(const Finding& finding) {
  return wcp::shape_of(with_module_abstracted(finding.fix, finding.module));
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
};

bool belongs(const OpenGroup& open, const Finding& finding, const TextShape& shape) {
  return open.group.mechanism == finding.mechanism && same_owner(open.group.owner, finding.owner) &&
         open.text == shape.text;
}

void close(OpenGroup& open) {
  FindingGroup& group = open.group;
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
    TextShape shape = shape_of(finding);
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
                             finding.modules.empty() && !finding.module.empty()
                                 ? std::vector<std::string>{finding.module}
                                 : finding.modules});
    found->numbers.push_back(std::move(shape.numbers));
    found->fixes.push_back(finding.fix);
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
