"""One CPU fixture measured end to end with the pack (no GPU needed): `measure` of
fixtures/clean/app.py on the CPU, its catalogued CPU structure (fixtures/catalog.json `expect`),
the instrumentation attached, native compile time recorded, and a diagnosis with no finding.
On a GPU machine it shows that the CLI, Warp and the probe work there apart from CUDA; in the
rehearsal it is the measurement that proves the pack works at all.

  python3 ci/gpu/checks/cpu_fixture.py --results DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402
from fixture_findings import structure_problems  # noqa: E402
from probe_testlib import catalog_entries, launch_runs  # noqa: E402

FIXTURE = "clean"


def main():
    check = gpucheck.Check("cpu-fixture", __doc__)
    check.parse()
    check.device = "cpu"
    entry = next(e for e in catalog_entries() if e["name"] == FIXTURE)
    expect = entry["expect"]["app"]
    report_path = os.path.join(check.results, "clean_app.cpu.json")
    result, report = gpucheck.measure([gpucheck.PYTHON, os.path.join(gpucheck.FIXTURES, entry["app"])], report_path,
                                      check.env(WCP_FIXTURE_DEVICE="cpu"), samples=1, cwd=gpucheck.SOURCE_DIR,
                                      text_path=os.path.join(check.results, "clean_app.cpu.measure.txt"))
    if not check.expect(result.returncode == 0 and report is not None,
                        f"measure exited {result.returncode}: {result.stderr.strip()[-400:]}"):
        check.finish()
    for problem in structure_problems(report, expect):
        if problem.startswith("launches off the CUDA device"):
            continue  # this one runs on the CPU on purpose
        check.expect(False, problem)
    check.expect(all(run["device"] == "cpu" for run in launch_runs(report)), "launches off the CPU")
    check.expect(report.get("native_compile_ms_median") is not None, "no native compile time in the report")
    check.figure("warp", report.get("warp_version"))
    for key in ("cold_module_ms_median", "native_compile_ms_median", "warm_module_ms_median", "cold_wall_ms_median",
                "warm_wall_ms_median"):
        check.figure(key, report.get(key))
    diagnosis, text = gpucheck.diagnose(report_path, os.path.join(check.results, "clean_app.cpu.diag.json"),
                                        check.env(), text_path=os.path.join(check.results, "clean_app.cpu.diag.txt"))
    if check.expect(diagnosis is not None, f"diagnose failed: {text[-300:]}"):
        check.expect(not diagnosis["findings"], f"findings on the clean fixture: {[f['id'] for f in diagnosis['findings']]}")
    check.finish()


if __name__ == "__main__":
    main()
