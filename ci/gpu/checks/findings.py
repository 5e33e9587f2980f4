"""The catalogue's `findings` expectations (fixtures/catalog.json, `expect_cuda.<role>.findings`)
against a diagnosis (`diagnose --json`).

An expectation maps each mechanism id that must fire to its constraints; exactly those ids
fire, no more and no fewer. Constraints:
  "rebuilds": N   the finding lists exactly N rebuilds ("rebuild OLD -> NEW ..." evidence lines)
  "cause": TEXT   the finding names that cause in its evidence (CS-2: "clear_lto_cache",
                  "CUDA_CACHE_DISABLE", "kernel_cache_dir")
"""
import re

REBUILD_LINE = re.compile(r"^rebuild [0-9a-f]+ -> [0-9a-f]+ ")
KNOWN_CONSTRAINTS = {"rebuilds", "cause"}


def fired(diagnosis):
    """{id: finding} of a diagnosis (one finding per id is what the analysis writes)."""
    return {finding["id"]: finding for finding in diagnosis["findings"]}


def mismatches(expected, diagnosis):
    """What differs between `expected` ({id: constraints}) and the diagnosis: a list of
    sentences, empty when they agree."""
    found = fired(diagnosis)
    problems = []
    missing = sorted(set(expected) - set(found))
    extra = sorted(set(found) - set(expected))
    if missing:
        problems.append(f"expected finding(s) {', '.join(missing)} did not fire")
    for mechanism in extra:
        problems.append(f"unexpected finding {mechanism}: {found[mechanism].get('trigger', '')}")
    for mechanism, constraints in expected.items():
        unknown = set(constraints) - KNOWN_CONSTRAINTS
        if unknown:
            problems.append(f"{mechanism}: unknown constraint(s) {sorted(unknown)} in the catalogue")
        if mechanism not in found:
            continue
        evidence = found[mechanism].get("evidence", [])
        if "rebuilds" in constraints:
            rebuilds = [line for line in evidence if REBUILD_LINE.match(line)]
            if len(rebuilds) != constraints["rebuilds"]:
                problems.append(f"{mechanism}: {len(rebuilds)} rebuild(s) in its evidence, expected "
                                f"{constraints['rebuilds']}: {rebuilds}")
        if "cause" in constraints and not any(constraints["cause"] in line for line in evidence):
            problems.append(f"{mechanism}: its evidence does not name the cause {constraints['cause']!r}: {evidence}")
    return problems
