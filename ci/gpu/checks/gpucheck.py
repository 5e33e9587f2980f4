"""What every GPU check shares: where things are, how a check ends, how the CLI is run.

A check is a script run directly (`python3 ci/gpu/checks/NAME.py --results DIR`), by
ci/gpu/run.sh on a GPU machine with the pack, or by CTest (`ctest -L gpu`) on a GPU host with a
full build. It writes DIR/result.json ({"id", "status", "reason", "figures", "seconds"}) and
exits 0 (passed), 1 (failed) or 77 (skipped: no CUDA device, with the reason). CUDA hardware that
Warp cannot use is a failure, never a skip (tests/cuda_device.py).

Environment (run.sh and tests/CMakeLists.txt set it):
  WCP_CLI             the tool (on a GPU machine: the pack's wrapper, which loads the pack's libraries)
  WCP_PYTHON          the interpreter with Warp (the image's python3 with the pack's Warp on PYTHONPATH)
  WCP_SOURCE_DIR      the source tree the fixtures and helpers come from (the pack's copy on a GPU machine)
  WCP_FIXTURE_DEVICE  the CUDA device (cuda:0 unless CTest's resource allocation names another)
  WCP_GPU_DRY_RUN     a device ("cpu") to run a check's code on without a GPU, to find its bugs before
                      a GPU run: its figures and verdict are not CUDA results, and it says so
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

SOURCE_DIR = os.environ.get("WCP_SOURCE_DIR",
                            os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")))
for folder in (os.path.join(SOURCE_DIR, "tests"), os.path.join(SOURCE_DIR, "tests", "helpers"),
               os.path.join(SOURCE_DIR, "tests", "integration")):
    if folder not in sys.path:
        sys.path.insert(0, folder)

import cuda_device  # noqa: E402  (tests/cuda_device.py)

CLI = os.environ.get("WCP_CLI", os.path.join(SOURCE_DIR, "build", "harness", "warp-compile-probe"))
PYTHON = os.environ.get("WCP_PYTHON", "python3")
FIXTURES = os.path.join(SOURCE_DIR, "fixtures")
PASSED, FAILED, SKIPPED = 0, 1, cuda_device.SKIP


def cuda_device_name():
    # `ctest --resource-spec-file` hands each test its GPU as CTEST_RESOURCE_GROUP_0_GPUS=id:N,slots:1
    for field in os.environ.get("CTEST_RESOURCE_GROUP_0_GPUS", "").split(","):
        if field.startswith("id:"):
            return f"cuda:{field[3:]}"
    device = os.environ.get("WCP_FIXTURE_DEVICE", "cuda:0")
    return device if device.startswith("cuda") else "cuda:0"


class Check:
    """One check's run: its figures, its log lines, and how it ends (pass, fail, skip)."""

    def __init__(self, check_id, description=""):
        parser = argparse.ArgumentParser(description=description)
        parser.add_argument("--results", default=os.path.join(os.getcwd(), "gpu-results", check_id.replace("/", "-")),
                            help="folder for result.json and the check's files")
        self.parser = parser
        self.id = check_id
        self.figures = {}
        self.failures = []
        self.started = time.monotonic()
        self.args = None
        self.results = None
        self.dry_run = os.environ.get("WCP_GPU_DRY_RUN", "")
        self.device = self.dry_run or cuda_device_name()

    def add_pair_count(self, flag):
        """The number of interleaved pairs a judged check takes (`--pairs`, `--samples`): 5 by
        default, the fewest at which the paired sign test can credit a change at 5 %."""
        self.parser.add_argument(flag, type=int, default=5, help="pairs (5 is the fewest a sign test passes at 5 %%)")

    def parse(self, argv=None):
        self.args = self.parser.parse_args(argv)
        self.results = os.path.abspath(self.args.results)
        os.makedirs(self.results, exist_ok=True)
        return self.args

    def env(self, **extra):
        """The environment for the programs a check runs: the CUDA device, no bytecode in the tree."""
        env = dict(os.environ, WCP_FIXTURE_DEVICE=self.device, PYTHONDONTWRITEBYTECODE="1")
        env.update(extra)
        return env

    def log(self, text):
        print(text, flush=True)

    def figure(self, name, value):
        self.figures[name] = value
        self.log(f"  {name}: {value}")

    def expect(self, condition, message):
        """Records a failure (the check goes on, so one run reports every failure)."""
        if not condition:
            self.failures.append(message)
            self.log(f"  FAIL {message}")
        return condition

    def require_cuda(self):
        """Ends the check as skipped without CUDA hardware, as failed when Warp cannot use it."""
        if self.dry_run:
            self.figures["dry run"] = f"on {self.dry_run}, not CUDA: not a result"
            return None
        state, why, warp = cuda_device.status(PYTHON, self.env())
        if state == "absent":
            self.finish(SKIPPED, why)
        if state == "broken":
            self.failures.append(why)
            self.finish(FAILED, why)
        self.figures["cuda"] = why
        return warp

    def run_cli(self, arguments, json_path, log_name, timeout=900):
        """Runs the tool (`arguments` after the CLI) from the source tree, its output logged in
        results/log_name, and returns the JSON it wrote at json_path; without that JSON the check
        fails there, with the exit status and the end of stderr."""
        result = run([CLI, *arguments], env=self.env(), cwd=SOURCE_DIR, timeout=timeout,
                     log_path=os.path.join(self.results, log_name))
        if not self.expect(os.path.exists(json_path), f"{arguments[0]} wrote no JSON (exit {result.returncode}): "
                                                      f"{result.stderr[-400:]}"):
            self.finish()
        with open(json_path, encoding="utf-8") as handle:
            return json.load(handle)

    def finish(self, status=None, reason=""):
        if status is None:
            status = FAILED if self.failures else PASSED
        if status == FAILED and not reason:
            reason = "; ".join(self.failures[:3]) + (f" (+{len(self.failures) - 3} more)" if len(self.failures) > 3 else "")
        word = {PASSED: "passed", FAILED: "failed", SKIPPED: "skipped"}[status]
        result = {"id": self.id, "status": word, "reason": reason, "failures": self.failures,
                  "figures": self.figures, "seconds": round(time.monotonic() - self.started, 1), "device": self.device}
        with open(os.path.join(self.results, "result.json"), "w", encoding="utf-8") as handle:
            json.dump(result, handle, indent=1)
        self.log(f"{self.id}: {word}" + (f" ({reason})" if reason else ""))
        sys.exit(status)


def run(command, env=None, cwd=None, timeout=600, log_path=None):
    """Runs a command; returns CompletedProcess (text). Its output goes to log_path when given."""
    result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout,
                            stdin=subprocess.DEVNULL)
    if log_path:
        with open(log_path, "w", encoding="utf-8") as handle:
            handle.write(f"$ {' '.join(command)}\n[exit {result.returncode}]\n--- stdout\n{result.stdout}\n"
                         f"--- stderr\n{result.stderr}\n")
    return result


def measure(command, out_json, env, samples=1, extra=(), cwd=None, text_path=None, timeout=900):
    """`measure --samples N --json out_json -- command`; returns (CompletedProcess, report or None)."""
    result = run([CLI, "measure", "--quiet", "--samples", str(samples), "--json", out_json, *extra, "--", *command],
                 env=env, cwd=cwd, timeout=timeout, log_path=text_path)
    report = None
    if os.path.exists(out_json):
        with open(out_json, encoding="utf-8") as handle:
            report = json.load(handle)
    return result, report


def diagnose(report_path, out_json, env, text_path=None):
    """`diagnose REPORT --json out_json`; returns the diagnosis (dict) or None, and the text."""
    result = run([CLI, "diagnose", report_path, "--json", out_json], env=env, timeout=300)
    if text_path:
        with open(text_path, "w", encoding="utf-8") as handle:
            handle.write(result.stdout)
    if result.returncode != 0 or not os.path.exists(out_json):
        return None, result.stdout + result.stderr
    with open(out_json, encoding="utf-8") as handle:
        return json.load(handle), result.stdout


def scratch(prefix):
    return tempfile.mkdtemp(prefix=prefix)
