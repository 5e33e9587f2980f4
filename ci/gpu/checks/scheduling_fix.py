"""A real scheduling fix, credited on CUDA: fixtures/parallel_preload (five independent CUDA
modules, each built at its first launch, one after another) against its twin (the five
preloaded with `wp.force_load(..., max_workers=5)` before the first launch), measured with
`ab` (interleaved pairs). `ab` must judge the twin IMPROVED, with compile elapsed improved; the
diagnosis of the serial arm must carry CS-13, whose cost is the ceiling of what parallel builds
can save (the sum of the builds above the largest one), printed next to the measured saving
(the median paired delta of compile elapsed). Without the probe the same fix saved 1.9 s of a
6.1 s cold start on an H200 (tests/data/cuda-recorded/README.md).

  python3 ci/gpu/checks/scheduling_fix.py --results DIR [--samples 5]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402


def main():
    check = gpucheck.Check("scheduling-fix", __doc__)
    check.add_pair_count("--samples")
    args = check.parse()
    check.require_cuda()
    folder = os.path.join(gpucheck.FIXTURES, "parallel_preload")
    out = check.results
    ab_json, serial_json = os.path.join(out, "ab.json"), os.path.join(out, "serial.json")
    comparison = check.run_cli(["ab", "--quiet", "--samples", str(args.samples), "--json", ab_json, "--baseline-json",
                                serial_json, "--candidate-json", os.path.join(out, "parallel.json"), "--",
                                gpucheck.PYTHON, os.path.join(folder, "app.py"),
                                "--vs", gpucheck.PYTHON, os.path.join(folder, "fixed.py")],
                               ab_json, "ab.txt")["comparison"]
    elapsed = comparison["compile_elapsed"]
    check.figure("verdict", f"{comparison['verdict']}: {comparison['reason']}")
    check.figure("compile elapsed", {"serial_ms": elapsed["baseline_median_ms"], "parallel_ms": elapsed["candidate_median_ms"],
                                     "paired": elapsed.get("paired"), "direction": elapsed["direction"]})
    check.figure("cold module work direction", comparison["cold_module_work"]["direction"])
    check.expect(comparison["verdict"] == "IMPROVED", f"ab judged the parallel preload {comparison['verdict']}")
    check.expect(elapsed["direction"] == "improved", f"compile elapsed {elapsed['direction']}, not improved")
    saving = -elapsed["paired"]["median_delta_ms"] if elapsed.get("paired") else None
    diagnosis, text = gpucheck.diagnose(serial_json, os.path.join(out, "serial.diag.json"), check.env(),
                                        text_path=os.path.join(out, "serial.diag.txt"))
    ceiling = None
    if check.expect(diagnosis is not None, f"diagnose of the serial arm failed: {text[-300:]}"):
        serial = [f for f in diagnosis["findings"] if f["id"] == "CS-13"]
        if check.expect(bool(serial), f"no CS-13 on the serial arm: {[f['id'] for f in diagnosis['findings']]}"):
            ceiling = serial[0].get("cost_ms")
    check.figure("saving vs CS-13 ceiling", {"measured_saving_ms": saving, "cs13_ceiling_ms": ceiling,
                                             "share_of_ceiling": round(saving / ceiling, 2) if saving and ceiling else None})
    check.finish()


if __name__ == "__main__":
    main()
