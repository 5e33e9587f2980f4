"""Neutrality on CUDA: Warp's own per-load timer reads the same bare and under `measure`.

The program and the interleaved arms of tests/helpers/neutrality.py (integration/test_neutrality runs
them on the CPU), on the CUDA device: three modules loaded one after another, three preloaded
with `wp.force_load(..., max_workers=3)`, in an environment with 2,000 installed distributions.
Bare runs and `measure --samples 1` runs alternate --rounds times. Warm loads must read within
max(1 ms, 5 %) of bare: the process's first load (where the probe once added 0.6-1.1 s on CUDA),
the later serial loads, and the parallel ones; the probe's own time inside each load's timer
(hook_ms) at most 1 ms; the parallel preload recorded as overlapping loads on separate threads.
Cold loads are printed (bare, probe, difference), not asserted: a cold build varies more than
the tolerance.

  python3 ci/gpu/checks/neutrality_cuda.py --results DIR [--rounds 3]
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402
import neutrality  # noqa: E402  (tests/helpers/neutrality.py)

DISTRIBUTIONS = 2000


def main():
    check = gpucheck.Check("neutrality", __doc__)
    check.parser.add_argument("--rounds", type=int, default=3)
    args = check.parse()
    check.require_cuda()
    root = gpucheck.scratch("wcp_neutrality_")
    dists = neutrality.make_distributions(os.path.join(root, "site"), DISTRIBUTIONS)
    program = os.path.join(root, "program")
    os.makedirs(program)
    app = neutrality.write_program(program)
    inherited = os.environ.get("PYTHONPATH", "")  # the pack's Warp is on it
    env = check.env(PYTHONPATH=dists + (os.pathsep + inherited if inherited else ""))
    arms, hooks, reports = neutrality.interleaved(gpucheck.CLI, gpucheck.PYTHON, app, env, args.rounds)

    for pass_name in ("cold", "warm"):
        bare, probe = neutrality.medians(arms["bare"][pass_name]), neutrality.medians(arms["probe"][pass_name])
        check.figure(f"{pass_name} ms bare/probe", {name: [round(bare[name], 2), round(probe[name], 2)]
                                                   for name in sorted(set(bare) & set(probe))})
    first = neutrality.SERIAL[0]
    cold_bare, cold_probe = (neutrality.medians(arms[arm]["cold"]).get(first) for arm in ("bare", "probe"))
    if cold_bare is not None and cold_probe is not None:
        check.figure("cold first load added ms (printed, not asserted)", round(cold_probe - cold_bare, 2))

    names = set(neutrality.SERIAL + neutrality.PARALLEL)
    bare_warm, probe_warm = arms["bare"]["warm"], arms["probe"]["warm"]
    check.expect(names <= set(bare_warm), f"the bare runs logged no warm load of {sorted(names - set(bare_warm))}")
    check.expect(set(bare_warm) == set(probe_warm), f"the arms loaded different modules: {sorted(set(bare_warm) ^ set(probe_warm))}")
    groups = (("first load", neutrality.SERIAL[:1]), ("later serial loads", neutrality.SERIAL[1:]),
              ("parallel force_load", neutrality.PARALLEL))
    for group, members in groups:
        bare_all = [ms for name in members for ms in bare_warm.get(name, [])]
        probe_all = [ms for name in members for ms in probe_warm.get(name, [])]
        if not check.expect(bare_all and len(bare_all) == len(probe_all),
                            f"warm {group}: {len(bare_all)} bare and {len(probe_all)} probe loads"):
            continue
        bare_median, probe_median = statistics.median(bare_all), statistics.median(probe_all)
        tolerance = neutrality.tolerance_ms(bare_median)
        check.figure(f"warm {group} median ms", {"bare": round(bare_median, 3), "probe": round(probe_median, 3),
                                                 "tolerance": round(tolerance, 3)})
        check.expect(abs(probe_median - bare_median) <= tolerance,
                     f"warm {group}: {probe_median:.2f} ms under the probe, {bare_median:.2f} ms bare "
                     f"(tolerance {tolerance:.2f} ms)")
    check.expect(bool(hooks), "no load carried the probe's own time (hook_ms)")
    if hooks:
        check.figure("hook_ms max", round(max(hooks), 3))
        check.expect(max(hooks) <= 1.0, f"the probe's own time inside a load's timer: {max(hooks):.3f} ms")
    overlapping = [group for report in reports for group in report.get("overlapping_loads", [])]
    check.expect(any(group["threads"] >= 2 for group in overlapping),
                 f"no overlapping loads on separate threads recorded for the parallel preload: {overlapping}")
    check.finish()


if __name__ == "__main__":
    main()
