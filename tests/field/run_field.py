#!/usr/bin/env python3
"""The field corpus runner (issue 40, item 5; docs/field.md).

Each program of the corpus is a real program nobody here wrote: one of Warp's own examples or
test modules, or a Warp-based package's CPU test module or example, run as a user runs it (the
package installed in .venv-field) or as its maintainers run it (from a scratch git repository
made from the installed package's files). tests/field/expectations/<program>.json holds its
command and the findings reviewed by hand: the true ones (each with why it is true) and the ones
today's tool gives that were judged false (each with why).

For one program the runner measures the command cold and warm (`measure --samples 1`), reads the
diagnosis (`diagnose --json`) and asserts the true set exactly: every finding must match one true
entry (id, module, owner and the key facts of its evidence, never a timing), and every true entry
must be matched. A finding listed as false fails with its reason; a finding nobody reviewed fails
as new. Suppressing a finding does not make it true.

Python stdlib only. Exit status: 0 pass, 1 fail, 77 no .venv-field (ci/field_setup.sh makes it).

  run_field.py PROGRAM... [--cli CLI] [--python PY] [--work DIR]
  run_field.py --all
  run_field.py PROGRAM --diagnosis DIAG.json    compare a saved diagnosis, run nothing
  run_field.py PROGRAM --update [--write-proposal]
      print the current finding set as a proposal (reviewed entries keep their `why`; new ones
      say "UNREVIEWED"); --write-proposal writes it to expectations/PROGRAM.proposed.json. It
      never changes an expectation file: a person reviews the proposal against the package's
      source and copies what holds.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPECTATIONS = os.path.join(HERE, "expectations")
SKIP = 77


# ---------------------------------------------------------------------------------------------
# The comparison (pure: tests/field/test_run_field.py tests it without Warp).

def owner_kind(finding):
    """`user`, `dependency`, `warp`, or None for a whole-program finding."""
    owner = finding.get("owner")
    if not owner:
        return None
    return owner.get("owner") or None


def normalise(finding):
    """The parts of a diagnosis finding that an expectation is matched against."""
    return {
        "id": finding.get("id"),
        "module": finding.get("module") or None,
        "owner": owner_kind(finding),
        "evidence": [str(line) for line in finding.get("evidence") or []],
    }


def matches(expected, actual):
    """An expectation matches a finding when the id, module (or one of a list of modules) and
    owner are equal and each key fact (a fragment of text) occurs in one of its evidence lines."""
    if expected.get("id") != actual["id"]:
        return False
    module = expected.get("module") or None
    if isinstance(module, list):
        # A finding over several modules is headed by its costliest one, and which one that is
        # can turn on timings: the expectation lists the modules that may head it (and says why
        # in `module_why`); the key facts still name the modules it must cover.
        if actual["module"] not in module:
            return False
    elif module != actual["module"]:
        return False
    if expected.get("owner") != actual["owner"]:
        return False
    text = "\n".join(actual["evidence"])
    return all(fragment in text for fragment in expected.get("evidence") or [])


def _assign(expected, actual):
    """A maximum one-to-one matching of expectations to findings (augmenting paths: the lists
    are short). Returns {actual index: expected index}."""
    edges = [[e for e, entry in enumerate(expected) if matches(entry, finding)] for finding in actual]
    owner_of = {}  # expected index -> actual index

    def augment(a, seen):
        for e in edges[a]:
            if e in seen:
                continue
            seen.add(e)
            if e not in owner_of or augment(owner_of[e], seen):
                owner_of[e] = a
                return True
        return False

    for a in range(len(actual)):
        augment(a, set())
    return {a: e for e, a in owner_of.items()}


def compare(expectation, findings):
    """Compares a diagnosis's findings with an expectation.

    Returns a dict: `ok`, `matched` [(finding, true entry)], `known_false` [(finding, false
    entry)], `unreviewed` [finding], `missing` [true entry], `absent_allowed` [true entry]."""
    actual = [normalise(f) for f in findings]
    true_entries = expectation.get("true_findings") or []
    false_entries = expectation.get("false_findings") or []
    assignment = _assign(true_entries, actual)
    result = {"matched": [], "known_false": [], "unreviewed": [], "missing": [], "absent_allowed": []}
    for a, finding in enumerate(actual):
        if a in assignment:
            result["matched"].append((finding, true_entries[assignment[a]]))
            continue
        false_entry = next((entry for entry in false_entries if matches(entry, finding)), None)
        if false_entry is not None:
            result["known_false"].append((finding, false_entry))
        else:
            result["unreviewed"].append(finding)
    used = set(assignment.values())
    for e, entry in enumerate(true_entries):
        if e in used:
            continue
        if entry.get("may_be_absent"):
            result["absent_allowed"].append(entry)
        else:
            result["missing"].append(entry)
    result["ok"] = not (result["known_false"] or result["unreviewed"] or result["missing"])
    return result


def _label(entry):
    module = entry.get("module") or "-"
    if isinstance(module, list):
        module = " or ".join(module)
    owner = entry.get("owner") or "no owner"
    return f"[{entry.get('id')}] module {module}, owner {owner}"


def format_result(program, result, width=100):
    """The readable diff: what matched, and each difference with its reason."""
    def clip(text):
        return text if len(text) <= width else text[: width - 1] + "…"

    lines = []
    status = "PASS" if result["ok"] else "FAIL"
    lines.append(f"{program}: {status}: {len(result['matched'])} true finding(s) matched, "
                 f"{len(result['known_false'])} known false, {len(result['unreviewed'])} unreviewed, "
                 f"{len(result['missing'])} true missing")
    for finding, entry in result["matched"]:
        lines.append(f"  = {_label(finding)}")
    for entry in result["absent_allowed"]:
        lines.append(f"  ~ {_label(entry)}: absent, allowed: {entry['may_be_absent']}")
    for finding, entry in result["known_false"]:
        lines.append(f"  + {_label(finding)}: a finding judged FALSE")
        lines.append(clip(f"      evidence: {finding['evidence'][0] if finding['evidence'] else ''}"))
        lines.append(f"      why false: {entry.get('why', '')}")
    for finding in result["unreviewed"]:
        lines.append(f"  + {_label(finding)}: a finding nobody reviewed (new, or its evidence changed)")
        for line in finding["evidence"][:4]:
            lines.append(clip(f"      evidence: {line}"))
        lines.append("      review it against the package's source; `run_field.py "
                     f"{program} --update` proposes an entry")
    for entry in result["missing"]:
        lines.append(f"  - {_label(entry)}: a TRUE finding the tool no longer gives")
        lines.append(f"      key facts: {entry.get('evidence')}")
        lines.append(f"      why true: {entry.get('why', '')}")
    return "\n".join(lines)


def proposal(expectation, findings):
    """The current finding set as expectation entries, for a person to review. Matched entries
    keep their reviewed text; the rest are marked UNREVIEWED with their evidence's first lines."""
    result = compare(expectation, findings)
    proposed = dict(expectation)
    true_entries = [entry for _, entry in result["matched"]] + result["absent_allowed"]
    unreviewed = []
    for finding in result["unreviewed"]:
        unreviewed.append({
            "id": finding["id"], "module": finding["module"], "owner": finding["owner"],
            "evidence": [line.split(":")[0] for line in finding["evidence"][:1]],
            "evidence_seen": finding["evidence"][:6],
            "why": "UNREVIEWED: read the package's source; move to true_findings or false_findings with why",
        })
    proposed["true_findings"] = true_entries
    proposed["false_findings"] = [entry for _, entry in result["known_false"]] + [
        entry for entry in expectation.get("false_findings") or []
        if all(entry is not e for _, e in result["known_false"])]
    proposed["unreviewed_findings"] = unreviewed
    proposed["missing_true_findings"] = result["missing"]
    return proposed


# ---------------------------------------------------------------------------------------------
# Running a program.

def load_expectation(program):
    path = os.path.join(EXPECTATIONS, program + ".json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def all_programs():
    return sorted(name[:-5] for name in os.listdir(EXPECTATIONS)
                  if name.endswith(".json") and not name.endswith(".proposed.json"))


def site_packages(python):
    out = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         check=True, capture_output=True, text=True)
    return out.stdout.strip()


def make_checkout(package_dir, checkout):
    """A scratch git repository holding a copy of the installed package, as a maintainer's
    checkout would (one commit); the program runs with cwd and PYTHONPATH set to it."""
    name = os.path.basename(package_dir)
    shutil.copytree(package_dir, os.path.join(checkout, name),
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache"))
    git = ["git", "-c", "user.name=field", "-c", "user.email=field@localhost", "-c", "init.defaultBranch=main"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", f"{name}: copy of the installed package"]):
        subprocess.run(git + args, cwd=checkout, check=True, capture_output=True)


def substitute(value, names):
    for key, replacement in names.items():
        value = value.replace("{" + key + "}", replacement)
    return value


def run_program(program, expectation, cli, python, work, keep_log):
    """Measures the program, diagnoses it; returns (findings, diagnosis path, seconds, error)."""
    base = os.path.join(work, program)
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    names = {"python": python, "site_packages": site_packages(python), "work": base}
    cwd = base
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    checkout_of = expectation.get("checkout")
    if checkout_of:
        checkout = os.path.join(base, "checkout")
        make_checkout(os.path.join(names["site_packages"], checkout_of), checkout)
        names["checkout"] = checkout
        cwd = checkout
        env["PYTHONPATH"] = checkout
    command = [substitute(arg, names) for arg in expectation["command"]]
    report = os.path.join(base, "report.json")
    diagnosis = os.path.join(base, "diagnosis.json")
    measure = [cli, "measure", "--samples", "1", "--quiet", "--json", report, "--cwd", cwd, "--"] + command
    keep_log(f"$ (cd {cwd}{' && PYTHONPATH=' + env['PYTHONPATH'] if 'PYTHONPATH' in env else ''}) "
             + " ".join(command))
    start = time.monotonic()
    with open(os.path.join(base, "measure.log"), "w") as log:
        try:
            status = subprocess.run(measure, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
        except OSError as error:  # e.g. the binary is being relinked by a build right now
            return None, None, 0.0, f"cannot run {cli}: {error}"
    seconds = time.monotonic() - start
    if status != 0 or not os.path.exists(report):
        return None, None, seconds, f"measure exited {status}; see {base}/measure.log"
    with open(report, encoding="utf-8") as f:
        measured = json.load(f)
    failed = (measured.get("failed_samples") or 0) + (measured.get("timed_out_samples") or 0)
    if failed:
        return None, None, seconds, (f"{failed} sample(s) of the program failed or timed out: the corpus "
                                     f"measures programs that succeed; see {base}/measure.log and {report}")
    status = subprocess.run([cli, "diagnose", report, "--json", diagnosis], cwd=base,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if status.returncode != 0:
        return None, None, seconds, f"diagnose exited {status.returncode}: {status.stderr.strip()}"
    # The default screens must hold whole sentences (issue 50): the measure screen (in the log,
    # carrying the diagnosis in brief) and the default diagnose view.
    brief = subprocess.run([cli, "diagnose", report], cwd=base, capture_output=True, text=True)
    with open(os.path.join(base, "diagnose.txt"), "w", encoding="utf-8") as f:
        f.write(brief.stdout)
    with open(os.path.join(base, "measure.log"), encoding="utf-8") as f:
        screens = {"measure": f.read(), "diagnose": brief.stdout}
    for name, text in screens.items():
        cut = [line for line in text.splitlines() if "…" in line]
        if cut:
            return None, None, seconds, f"the default {name} output cuts a sentence: {cut[0].strip()!r}"
    with open(diagnosis, encoding="utf-8") as f:
        findings = json.load(f)["findings"]
    cold = measured.get("cold_module_ms_median")
    keep_log(f"  measured in {seconds:.0f} s; cold module work {cold / 1000:.1f} s; "
             f"{len(findings)} finding(s); report {report}" if cold is not None else
             f"  measured in {seconds:.0f} s; {len(findings)} finding(s); report {report}")
    return findings, diagnosis, seconds, None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("programs", nargs="*", help="program names (tests/field/expectations/NAME.json)")
    parser.add_argument("--all", action="store_true", help="every program of the corpus")
    parser.add_argument("--cli", default=os.environ.get("WCP_CLI", os.path.join(ROOT, "build/harness/warp-compile-probe")))
    parser.add_argument("--python", default=os.environ.get("WCP_PYTHON_FIELD", os.path.join(ROOT, ".venv-field/bin/python")),
                        help="the field venv's interpreter (ci/field_setup.sh makes .venv-field)")
    parser.add_argument("--work", default=os.environ.get("WCP_FIELD_WORK"),
                        help="scratch folder for reports and checkouts (default: a temporary folder)")
    parser.add_argument("--diagnosis", help="compare this saved `diagnose --json` output; run nothing")
    parser.add_argument("--update", action="store_true", help="print the current finding set as a proposal")
    parser.add_argument("--write-proposal", action="store_true",
                        help="with --update: write expectations/PROGRAM.proposed.json (never the expectation file)")
    args = parser.parse_args(argv)
    programs = all_programs() if args.all else args.programs
    if not programs:
        parser.error("name a program or pass --all; programs: " + ", ".join(all_programs()))
    unknown = [p for p in programs if p not in all_programs()]
    if unknown:
        parser.error("no expectation file for " + ", ".join(unknown))

    if not args.diagnosis and not os.access(args.python, os.X_OK):
        print(f"no field venv at {args.python}: run ci/field_setup.sh (skipped)")
        return SKIP
    work = args.work or tempfile.mkdtemp(prefix="wcp-field-")
    failures = 0
    for program in programs:
        expectation = load_expectation(program)
        if args.diagnosis:
            with open(args.diagnosis, encoding="utf-8") as f:
                findings = json.load(f)["findings"]
        else:
            findings, _, _, error = run_program(program, expectation, args.cli, args.python, work,
                                                lambda line: print(line, flush=True))
            if error:
                print(f"{program}: FAIL: {error}")
                failures += 1
                continue
        if args.update:
            proposed = proposal(expectation, findings)
            text = json.dumps(proposed, indent=2, ensure_ascii=False) + "\n"
            if args.write_proposal:
                path = os.path.join(EXPECTATIONS, program + ".proposed.json")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                print(f"{program}: proposal written to {path}; review it, then edit {program}.json by hand")
            else:
                print(text)
        result = compare(expectation, findings)
        print(format_result(program, result))
        failures += 0 if result["ok"] else 1
    if len(programs) > 1:
        print(f"{len(programs) - failures} of {len(programs)} program(s) passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
