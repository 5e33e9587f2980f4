"""The CUDA build measured without a GPU against the one Warp does on the GPU (issue 64,
docs/cuda-build.md): each fixture runs on the CUDA device under `measure --cuda-arch ARCH`, ARCH
being the device's own, so every module is built twice in one run: by Warp's JIT load on the
GPU (the load's native compile time) and by the exit-time AOT build (its CPU time). Checks that
the AOT build compiled the identities the GPU loaded (same hashes at the same block_dim), and
records, per module, the JIT native compile time beside the AOT CPU time and their ratio. The
AOT time is the figure the tool gates on; the ratio says how well it stands for what a GPU
user waits on.

  python3 ci/gpu/checks/aot_vs_jit.py --results DIR [--program FIXTURE_FILE]...
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402

PROGRAMS = ("cuda_heavy_backward/app.py", "granular_modules/app.py", "sibling_modules/app.py")


def device_arch(check):
    result = gpucheck.run([gpucheck.PYTHON, "-c", "import warp as wp; wp.init(); print(wp.get_device('cuda:0').arch)"],
                          env=check.env())
    return int(result.stdout.strip().splitlines()[-1])


def main():
    check = gpucheck.Check("aot-vs-jit", __doc__)
    check.parser.add_argument("--program", action="append", help="a fixture file (repeatable)")
    args = check.parse()
    check.require_cuda()
    arch = device_arch(check)
    for relative in args.program or PROGRAMS:
        name = relative.replace("/", "_").removesuffix(".py")
        result, report = gpucheck.measure([gpucheck.PYTHON, os.path.join(gpucheck.FIXTURES, relative)],
                                          os.path.join(check.results, f"{name}.json"), check.env(), samples=1,
                                          extra=("--cuda-arch", str(arch)), cwd=gpucheck.SOURCE_DIR,
                                          text_path=os.path.join(check.results, f"{name}.measure.txt"))
        if not check.expect(report is not None and report.get("cuda_build"), f"{relative}: no CUDA build measured "
                                                                              f"(exit {result.returncode})"):
            continue
        jit = {(e["name"], e["hash"]): e for e in report["module_events"]
               if e["pass"] == "cold" and e["device"].startswith("cuda") and e["status"] == "compiled"}
        aot = {(m["module"], m["hash"]): m for m in report["cuda_build"]["modules"] if m["arch"] == arch}
        check.expect(set(aot) == set(jit), f"{relative}: AOT identities {sorted(aot)} differ from the GPU's {sorted(jit)}")
        rows = []
        for key in sorted(set(aot) & set(jit)):
            native = jit[key].get("native_ms") or jit[key].get("ms")
            cpu = aot[key].get("cpu_ms")
            rows.append({"module": key[0], "hash": key[1], "jit_ms": native, "aot_cpu_ms": cpu,
                         "ratio": (cpu / native) if cpu and native else None})
        check.figure(relative, rows)
    check.finish()


if __name__ == "__main__":
    main()
