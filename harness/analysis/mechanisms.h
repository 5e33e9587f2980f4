#pragma once
// The mechanism catalogue: stable ids, titles and the docs/mechanisms.md section of each, so
// findings, ruled-out lines and docs always use the same words.
#include <string>
#include <string_view>
#include <vector>

namespace wcp::analysis {

struct Mechanism {
  std::string_view id;
  std::string_view title;
  std::string_view anchor;  // heading anchor in docs/mechanisms.md
};

// Every mechanism the diagnosis checks, in catalogue order.
const std::vector<Mechanism>& mechanisms();
// Throws std::out_of_range for an unknown id (a programming error).
const Mechanism& mechanism(std::string_view id);
// "docs/mechanisms.md#<anchor>"
std::string doc_link(std::string_view id);

}  // namespace wcp::analysis
