#pragma once
// The ledger file `report --ledger` reads (results/ledger.h), written from what `levers`
// measured, so the results report carries the measurements without anyone copying them by hand.
// One entry per lever that ran (measured, needed by this program, or did not arrive); levers that
// were not applicable or skipped were not options measured for this program, and are left out.
#include <string>

#include "model/lever_outcome.h"
#include "results/ledger.h"

namespace wcp::results {

// `measured:` says what was measured, never a saving that was not: "-120.0 ms cold module work
// ± 8.0 (IMPROVED)", "inside noise: -3.1 ms cold module work ± 9.0 (INCONCLUSIVE)", "needed by
// this program: exit status 1", "not measured: it did not arrive (...)".
Ledger ledger_from_levers(const LeverLedger& levers);

// The YAML parse_ledger reads back to the same entries (quoted where YAML needs it).
std::string ledger_to_yaml(const Ledger& ledger);

// ledger_to_yaml(ledger_from_levers(levers)), for `levers --ledger PATH`.
std::string lever_ledger_yaml(const LeverLedger& levers);

}  // namespace wcp::results
