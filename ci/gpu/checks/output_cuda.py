"""The program's output unchanged under the probe on CUDA: `measure --check-output` (the program
run once more without the probe, cold and warm, its stdout, stderr and exit status compared
with the first sample's after the fixed masks of docs/instrumentation.md#output) of CUDA
programs of several kinds: one module, threads loading in parallel, an LTO/MathDx build, PTX
with the driver cache off, a process tree. Warp's banner names the CUDA device on stdout, so
the comparison also covers what Warp prints about the GPU.

  python3 ci/gpu/checks/output_cuda.py --results DIR [--jobs 2] [--program FIXTURE_FILE]...
"""
import concurrent.futures
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402

PROGRAMS = ("clean/app.py", "parallel_preload/fixed.py", "lto_tile/app.py", "ptx_cache_disabled/app.py",
            "processes/subprocess_launcher/app.py")
# Warp prints a parallel preload's load lines in the order its threads finish, and a thread's
# text and newline apart (two messages can share a line, leaving a blank one): their order
# differs between two runs with or without the probe, so that program's comparison leaves its
# load lines and blank lines out (seen on the CPU: stage_b and stage_c swapped between runs).
IGNORED = {"parallel_preload/fixed.py": r"^(Module \S+ .*load on device .*)?$"}


def measure(check, relative):
    name = relative.replace("/", "_").removesuffix(".py")
    result, report = gpucheck.measure([gpucheck.PYTHON, os.path.join(gpucheck.FIXTURES, relative)],
                                      os.path.join(check.results, f"{name}.json"), check.env(), samples=1,
                                      extra=("--check-output",) + (("--ignore-output", IGNORED[relative])
                                                                    if relative in IGNORED else ()),
                                      cwd=gpucheck.SOURCE_DIR,
                                      text_path=os.path.join(check.results, f"{name}.measure.txt"))
    return relative, result, report


def main():
    check = gpucheck.Check("output", __doc__)
    check.parser.add_argument("--jobs", type=int, default=2)
    check.parser.add_argument("--program", action="append", help="a fixture file (repeatable; default: all five)")
    args = check.parse()
    check.require_cuda()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(lambda relative: measure(check, relative), args.program or PROGRAMS))
    for relative, result, report in outcomes:
        if not check.expect(report is not None, f"{relative}: measure wrote no report (exit {result.returncode}): "
                                                f"{result.stderr.strip()[-300:]}"):
            continue
        output = report.get("output_check")
        if not check.expect(output is not None, f"{relative}: no output_check in the report"):
            continue
        passes = {p["pass"]: p for p in output.get("passes", [])}
        check.figure(relative, {"same": output["same"], "passes": sorted(passes),
                                "lines": {k: [p.get("stdout_lines"), p.get("stderr_lines")] for k, p in passes.items()},
                                "not_compared": output.get("not_compared")})
        check.expect(output["same"] and result.returncode == 0,
                     f"{relative}: output changed under the probe (exit {result.returncode}): "
                     + "; ".join(f"{k}: stdout {p.get('stdout_difference')}, stderr {p.get('stderr_difference')}"
                                 for k, p in passes.items() if not p.get("same")))
        check.expect(set(passes) == {"cold", "warm"}, f"{relative}: compared passes {sorted(passes)}, not cold and warm")
        check.expect(any(e["device"].startswith("cuda") for e in report["module_events"]),
                     f"{relative}: no module loaded on the CUDA device")
    check.finish()


if __name__ == "__main__":
    main()
