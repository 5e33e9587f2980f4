"""The catalogue on CUDA, diagnoses included: every fixture of fixtures/catalog.json that runs on
CUDA, app and twin, measured (`measure --samples 2`) and diagnosed on the GPU.

Asserts what gpu/catalogue asserts (builds, hashes, warm compiles, launches on the device, LTO
artifacts, the twin's launch topology) and, from `expect_cuda.<role>.findings`, that exactly
the catalogued mechanisms fire, with their constraints (ci/gpu/checks/findings.py). Keeps each
report and diagnosis under the recordings' names (NAME_app.json, .measure.txt, .diag.json,
.diag.txt) for tests/data/cuda-recorded/probe.

  python3 ci/gpu/checks/fixture_findings.py --results DIR [--fixture NAME]... [--samples 2]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402
from findings import mismatches  # noqa: E402
from probe_testlib import catalog, compiled_events, expectations, launch_runs  # noqa: E402


def structure_problems(report, expect):
    """gpu/catalogue's structure expectations, as sentences (empty when they hold)."""
    problems = []
    if report["failed_samples"]:
        problems.append(f"{report['failed_samples']} failed sample(s)")
    if not report["instrumentation"]["attached"]:
        problems.append("the instrumentation did not attach")
    cold = compiled_events(report, "cold")
    if len(cold) != expect["cold_compiled_modules"]:
        problems.append(f"{len(cold)} cold builds, expected {expect['cold_compiled_modules']}")
    if report["modules"] != expect["distinct_modules"]:
        problems.append(f"{report['modules']} modules, expected {expect['distinct_modules']}")
    hashes = {}
    for event in cold:
        hashes.setdefault(event["name"], set()).add(event["hash"])
    if expect["rebuilt_module"]:
        seen = len(hashes.get(expect["rebuilt_module"], ()))
        if seen < expect["min_hashes"]:
            problems.append(f"{expect['rebuilt_module']}: {seen} hash(es), expected at least {expect['min_hashes']}")
    elif any(len(h) != 1 for h in hashes.values()):
        problems.append(f"a module built under several hashes: {hashes}")
    warm = len(compiled_events(report, "warm"))
    if warm != expect["warm_compiles"]:
        problems.append(f"{warm} warm compile(s), expected {expect['warm_compiles']}")
    runs = launch_runs(report)
    launches = sum(run["count"] for run in runs)
    if launches != expect["launches"]:
        problems.append(f"{launches} launches, expected {expect['launches']}")
    off_device = [run["device"] for run in runs if not run["device"].startswith("cuda")]
    if off_device:
        problems.append(f"launches off the CUDA device: {off_device}")
    if "lto" in expect and bool(report["lto_artifacts"]) != expect["lto"]:
        problems.append(f"{report['lto_artifacts']} LTO artifact(s), expected {'some' if expect['lto'] else 'none'}")
    return problems


def topology(report):
    return [(r["dim"], r["device"], r["dtypes"], r["block_dim"], r["adjoint"], r["count"]) for r in launch_runs(report)]


def measure_role(check, entry, role, samples):
    name = f"{entry['name']}_{role}"
    out = check.results
    result, report = gpucheck.measure([gpucheck.PYTHON, os.path.join(gpucheck.FIXTURES, entry[role])],
                                      os.path.join(out, f"{name}.json"), check.env(), samples=samples,
                                      cwd=gpucheck.SOURCE_DIR, text_path=os.path.join(out, f"{name}.measure.txt"))
    if result.returncode != 0 or report is None:
        check.expect(False, f"{name}: measure exited {result.returncode}: {result.stderr.strip()[-300:]}")
        return None, None
    diagnosis, text = gpucheck.diagnose(os.path.join(out, f"{name}.json"), os.path.join(out, f"{name}.diag.json"),
                                        check.env(), text_path=os.path.join(out, f"{name}.diag.txt"))
    check.expect(diagnosis is not None, f"{name}: diagnose failed: {text[-300:]}")
    return report, diagnosis


def main():
    check = gpucheck.Check("findings", __doc__)
    check.parser.add_argument("--fixture", action="append", help="a catalogue name (repeatable; default: all on CUDA)")
    check.parser.add_argument("--samples", type=int, default=2)
    args = check.parse()
    if args.fixture and len(args.fixture) == 1:
        check.id = f"findings/{args.fixture[0]}"
    entries = [entry for entry in catalog("cuda") if not args.fixture or entry["name"] in args.fixture]
    unknown = set(args.fixture or ()) - {entry["name"] for entry in entries}
    if unknown:
        check.finish(gpucheck.FAILED, f"not catalogued for CUDA: {sorted(unknown)}")
    check.require_cuda()
    for entry in entries:
        reports = {}
        for role in ("app", "fixed"):
            if not entry.get(role):
                continue
            name = f"{entry['name']}_{role}"
            expect = expectations(entry, role, "cuda")
            if not check.expect(expect is not None and "findings" in expect,
                                f"{name}: no findings expectation in catalog.json expect_cuda"):
                continue
            report, diagnosis = measure_role(check, entry, role, args.samples)
            if report is None:
                continue
            reports[role] = report
            for problem in structure_problems(report, expect):
                check.expect(False, f"{name}: {problem}")
            if diagnosis is not None:
                for problem in mismatches(expect["findings"], diagnosis):
                    check.expect(False, f"{name}: {problem}")
                check.figure(f"{name} findings", {f["id"]: f.get("cost_ms") for f in diagnosis["findings"]})
            check.figure(f"{name} cold/warm module ms", [report.get("cold_module_ms_median"),
                                                        report.get("warm_module_ms_median")])
        if "app" in reports and "fixed" in reports:
            check.expect(topology(reports["app"]) == topology(reports["fixed"]),
                         f"{entry['name']}: app and twin launch different topologies")
    check.finish()


if __name__ == "__main__":
    main()
