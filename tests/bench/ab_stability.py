"""A/A stability: `ab` (paired, interleaved) against two separate `measure` runs and `compare`,
on a machine made busy by busy loops this script starts and kills itself.

Both arms run the same command, so every verdict other than INCONCLUSIVE is a false one: the
tool claiming a change where there is none. Each round takes one `ab` verdict and one verdict
from two back-to-back `measure` runs; rounds repeat so the flip rate is visible. Prints one line
per round and a summary; --out writes every number.

    python tests/bench/ab_stability.py --cli build/harness/warp-compile-probe \\
        --python .venv/bin/python --rounds 3 --samples 4

About 12 minutes on the project's 2-core machine with the defaults.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def judgement_of(path):
    """The comparison in a `compare --json` file, or in an `ab --json` document."""
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    return document.get("comparison", document)


def run(cli, args, env):
    result = subprocess.run([cli, *args], capture_output=True, text=True, env=env, timeout=3600)
    if result.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args[:1])} failed ({result.returncode}):\n{result.stderr}")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--app", default=os.path.join(ROOT, "fixtures", "clean", "app.py"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--samples", type=int, default=4)
    parser.add_argument("--busy", type=int, default=2)
    parser.add_argument("--out", default="")
    args = parser.parse_args()
    cli = os.path.abspath(args.cli)
    command = [os.path.abspath(args.python), args.app]
    loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    rounds = []
    try:
        with tempfile.TemporaryDirectory(prefix="wcp-aa-") as directory:
            env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            for index in range(1, args.rounds + 1):
                ab_json = os.path.join(directory, "ab.json")
                run(cli, ["ab", "--quiet", "--samples", str(args.samples), "--json", ab_json, "--", *command, "--vs",
                          *command], env)
                paired = judgement_of(ab_json)
                paths = []
                for arm in ("a", "b"):
                    paths.append(os.path.join(directory, f"{arm}.json"))
                    run(cli, ["measure", "--quiet", "--samples", str(args.samples), "--json", paths[-1], "--",
                              *command], env)
                compare_json = os.path.join(directory, "compare.json")
                run(cli, ["compare", *paths, "--json", compare_json], env)
                separate = judgement_of(compare_json)
                rounds.append({"round": index, "load": os.getloadavg()[0], "ab": paired["verdict"],
                               "separate": separate["verdict"], "ab_reason": paired["reason"],
                               "separate_reason": separate["reason"]})
                print(f"round {index}: load {rounds[-1]['load']:.2f}  ab {paired['verdict']:13}  separate measures "
                      f"{separate['verdict']:13}", file=sys.stderr, flush=True)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    false_ab = sum(r["ab"] != "INCONCLUSIVE" for r in rounds)
    false_separate = sum(r["separate"] != "INCONCLUSIVE" for r in rounds)
    print(f"\nA/A under {args.busy} busy loops, {args.samples} samples per arm, {len(rounds)} rounds "
          f"({os.path.basename(args.app)} against itself)")
    print(f"  ab (paired):              {false_ab} false verdict(s): {', '.join(r['ab'] for r in rounds)}")
    print(f"  two measures + compare:   {false_separate} false verdict(s): "
          f"{', '.join(r['separate'] for r in rounds)}")
    for r in rounds:
        print(f"  round {r['round']}: ab: {r['ab_reason']}\n           separate: {r['separate_reason']}")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(rounds, handle, indent=2)


if __name__ == "__main__":
    main()
