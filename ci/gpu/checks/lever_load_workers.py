"""The CUDA-only lever, measured on CUDA (issue 30): `levers --only load-workers` on
fixtures/parallel_preload (five CUDA modules, each built at its first launch, one after
another: CS-13). The lever sets `wp.config.load_module_max_workers` right after `import warp`;
Warp reads that setting only in `force_load`/`load_module` calls that leave `max_workers` to it,
so on a program that loads lazily it may well not arrive. Either outcome is a result: the check
requires that the lever was chosen and run (a CUDA run, so not "not applicable"), that it
ended measured with the same workload or did not arrive with its reason, and records which,
with both clocks. A dry run on the CPU (WCP_GPU_DRY_RUN) requires that the lever is not run
there: CS-13 is not checked on the CPU, and concurrent CPU loads are not safe.

  python3 ci/gpu/checks/lever_load_workers.py --results DIR [--pairs 5]
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpucheck  # noqa: E402


def main():
    check = gpucheck.Check("lever-load-workers", __doc__)
    check.add_pair_count("--pairs")
    args = check.parse()
    check.require_cuda()
    folder = os.path.join(gpucheck.FIXTURES, "parallel_preload")
    ledger_json = os.path.join(check.results, "levers.json")
    ledger = check.run_cli(["levers", "--quiet", "--verbose", "--pairs", str(args.pairs), "--only", "load-workers",
                            "--json", ledger_json, "--", gpucheck.PYTHON, os.path.join(folder, "app.py")],
                           ledger_json, "levers.txt")
    outcomes = {row["lever"]["id"]: row for row in ledger["outcomes"]}
    row = outcomes.get("load-workers")
    if check.dry_run:
        # On the CPU, CS-13 is not checked, so the lever is not chosen; if it were, never run.
        check.expect(row is None or row["status"] == "not_applicable",
                     f"on the CPU the lever must not run, got {row and row['status']}")
        check.finish()
    if not check.expect(row is not None, f"no load-workers lever was chosen (no CS-13?): {sorted(outcomes)}"):
        check.finish()
    check.figure("status", row["status"])
    check.figure("reason or arrival", row.get("arrival") or row.get("reason"))
    check.figure("compile elapsed", row["compile_elapsed"])
    check.figure("cold module work", row["cold_module"])
    check.expect(row["status"] in ("measured", "did_not_arrive"),
                 f"the lever was {row['status']} ({row.get('reason')}), not run on a CUDA run")
    if row["status"] == "measured":
        check.expect(row["workload"] == "same", f"the workload was {row['workload']}")
        check.expect(row["judged_on"] == "compile elapsed", "a scheduling lever is judged on compile elapsed")
    else:
        check.expect(bool(row.get("reason")), "a lever that did not arrive says why")
    check.finish()


if __name__ == "__main__":
    main()
