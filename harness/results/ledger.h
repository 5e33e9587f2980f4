#pragma once
// The ledger of options measured and not taken (the seed's step 6): what a reviewer needs to
// make a call the author was not placed to make. Kept by the user as a small YAML file:
//
//   declined:
//     - option: enable_backward=False on pkg.solver
//       measured: -38% cold
//       why_not: a live tape traverses these kernels
//       to_take_it: set at the entry point, then re-check adjoints
//
// Every problem is a UsageError "FILE:LINE: message".
#include <filesystem>
#include <string>
#include <vector>

namespace wcp::results {

struct LedgerEntry {
  std::string option;      // the option or change, in the user's words
  std::string measured;    // its measured effect ("-38% cold", "inside noise")
  std::string why_not;     // why it was not taken
  std::string to_take_it;  // what taking it would involve ("" when nothing applies)
  bool operator==(const LedgerEntry&) const = default;
};

struct Ledger {
  std::vector<LedgerEntry> declined;
  bool operator==(const Ledger&) const = default;
};

Ledger load_ledger(const std::filesystem::path& path);
Ledger parse_ledger(const std::string& text, const std::filesystem::path& path);

}  // namespace wcp::results
