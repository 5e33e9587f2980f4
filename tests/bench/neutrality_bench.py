"""What the probe adds to Warp's own load timers, cold and warm (run via ci/bench.sh).

The program of tests/helpers/neutrality.py (three modules loaded one after another, three in
parallel) in an environment with --distributions installed distributions; bare runs and
`measure --samples 1` alternate --rounds times. Prints, per module and pass, the bare median of
Warp's "took N ms", the probe's median and the difference, and the probe's own time inside the
timers (hook_ms). integration/test_neutrality asserts the warm half; cold loads vary too much
for a test and are judged here.
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "helpers")))  # tests/helpers/neutrality.py
import neutrality  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python", required=True, help="may be given twice", action="append")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--distributions", type=int, default=2000)
    args = parser.parse_args()
    print("machine:", os.uname().nodename, "cores", os.cpu_count(), "load", os.getloadavg())
    with tempfile.TemporaryDirectory() as scratch:
        site = neutrality.make_distributions(os.path.join(scratch, "site"), args.distributions)
        program = os.path.join(scratch, "program")
        os.makedirs(program)
        app = neutrality.write_program(program)
        env = dict(os.environ, PYTHONPATH=site)
        for python in args.python:
            python = os.path.abspath(python)
            arms, hooks, _ = neutrality.interleaved(os.path.abspath(args.cli), python, app, env, args.rounds)
            print(f"== {python}: Warp's load timer, bare against under the probe ({args.distributions} distributions, "
                  f"medians of {args.rounds} interleaved rounds)")
            for pass_name in ("cold", "warm"):
                bare = neutrality.medians(arms["bare"][pass_name])
                probe = neutrality.medians(arms["probe"][pass_name])
                for name in sorted(set(bare) & set(probe)):
                    delta = probe[name] - bare[name]
                    verdict = "ok" if abs(delta) <= neutrality.tolerance_ms(bare[name]) else "OUTSIDE max(1 ms, 5 %)"
                    print(f"{pass_name:4s} {name:12s} bare {bare[name]:9.2f} ms  probe {probe[name]:9.2f} ms  "
                          f"added {delta:+8.2f} ms  {verdict}")
            if hooks:
                print(f"hook_ms per load (the probe's own time inside Warp's timer): median "
                      f"{statistics.median(hooks):.3f} ms, max {max(hooks):.3f} ms over {len(hooks)} loads")


if __name__ == "__main__":
    sys.exit(main())
