"""What `measure --cuda-arch` adds (run via ci/bench.sh): per program, interleaved rounds of a
plain `measure --samples 1` and one with `--cuda-arch sm_86`, on Warp's NVRTC without a GPU.

Prints, per program: the program's cold wall without and with the CUDA builds (the builds' exit
window is left out of it, so the ratio should stay near 1), the exit window the builds added,
their summed CPU time, the threads used, the costliest single build, and two goals: the issue's,
added wall <= CUDA CPU / threads + 10 %, and the schedule's, added wall <= max(costliest build,
header build + the rest / threads) + 10 %. The header build is the module whose trace parsed
Warp's headers: NVRTC builds its precompiled header there, and the other builds of the process
wait for it (measured: a 89 ms build waited 450 ms beside it). No schedule beats either, so where
one build dominates only the second goal can be met. The load average before each round is printed.

    python tests/bench/cuda_build_cost.py --cli build/harness/warp-compile-probe --python .venv/bin/python

About 4 minutes on the project's 2-core machine with the default 3 rounds.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PROGRAMS = {
    "granular_modules (4 modules)": os.path.join(ROOT, "fixtures", "granular_modules", "app.py"),
    "sibling_modules (3 modules)": os.path.join(ROOT, "fixtures", "sibling_modules", "app.py"),
    "cuda_heavy_backward (1 module)": os.path.join(ROOT, "fixtures", "cuda_heavy_backward", "app.py"),
}


def measure(cli, python, program, extra):
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "report.json")
        subprocess.run([cli, "measure", "--quiet", "--samples", "1", "--json", path, *extra, "--", python, program],
                       check=True, capture_output=True, text=True, cwd=scratch)
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    arguments.cli, arguments.python = os.path.abspath(arguments.cli), os.path.abspath(arguments.python)
    print(f"{'program':<32} {'cold wall':>10} {'with':>10} {'ratio':>6} {'added':>8} {'CUDA CPU':>9} "
          f"{'threads':>7} {'longest':>8} {'goal':>8}  met {'bound':>8}  met")
    missed = missed_bound = 0
    for name, program in PROGRAMS.items():
        plain, with_cuda, added, cpu, workers, longest, headers = [], [], [], [], [], [], []
        for round_index in range(arguments.rounds):
            print(f"  round {round_index + 1}, load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
            plain.append(measure(arguments.cli, arguments.python, program, [])["cold_wall_ms_median"])
            report = measure(arguments.cli, arguments.python, program, ["--cuda-arch", "sm_86"])
            with_cuda.append(report["cold_wall_ms_median"])
            sample = report["sample_results"][0]
            added.append(sample["cuda_build_wall_ms"])
            cpu.append(sample["cuda_compile_cpu_ms"]["86"])
            workers.append(report["cuda_build"]["workers"])
            modules = report["cuda_build"]["modules"]
            longest.append(max(module["cpu_ms"] or 0 for module in modules))
            headers.append(sum(module["cpu_ms"] or 0 for module in modules if module["phases"]["headers_ms"]))
        wall, wall_with = statistics.median(plain), statistics.median(with_cuda)
        added_ms, cpu_ms, threads = statistics.median(added), statistics.median(cpu), max(workers)
        longest_ms = statistics.median(longest)
        goal = cpu_ms / threads * 1.1
        header_ms = statistics.median(headers)
        bound = max(longest_ms, header_ms + (cpu_ms - header_ms) / threads) * 1.1
        met, within = added_ms <= goal, added_ms <= bound
        missed += 0 if met else 1
        missed_bound += 0 if within else 1
        print(f"{name:<32} {wall:>8.0f}ms {wall_with:>8.0f}ms {wall_with / wall:>6.2f} {added_ms:>6.0f}ms "
              f"{cpu_ms:>7.0f}ms {threads:>7} {longest_ms:>6.0f}ms {goal:>6.0f}ms  {'yes' if met else 'NO ':<3} "
              f"{bound:>6.0f}ms  {'yes' if within else 'NO'}")
    print(f"{missed} program(s) missed the issue's goal, {missed_bound} the schedule's bound")


if __name__ == "__main__":
    main()
