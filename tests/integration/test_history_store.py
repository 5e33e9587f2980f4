"""The history file on its own, without measuring Warp: four concurrent writers lose nothing, a
damaged file is refused with exit 4 and left byte for byte as it was (and the command never
runs), and `WCP_HISTORY` with `history import` of the original probe's reports. Kept apart from
test_history.py because these drive the store's C++ (SQLite, locking, the refusal path) in
seconds, so the sanitizer pass runs them while it leaves out the measuring tests."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

from probe_testlib import SOURCE_DIR, run_cli, run_cli_concurrently


class HistoryFileSafetyTest(unittest.TestCase):
    def setUp(self):
        self.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_history_safety_"))
        self.report = os.path.join(SOURCE_DIR, "tests", "data", "interop", "clean-app.json")

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)

    def test_four_concurrent_writers_of_50_results_lose_nothing(self):
        history = self.scratch / "history.sqlite"
        run_cli_concurrently(self, [["history", "import", "--history", str(history), "--name", f"writer-{index}",
                                      "--commit", f"{index:040d}", *([self.report] * 50)] for index in range(4)], 50)
        shown = self.scratch / "shown.json"
        result = run_cli(["history", "show", "--history", str(history), "--json", str(shown)])
        self.assertEqual(result.returncode, 0, result.stderr)
        series = json.loads(shown.read_text())["series"]
        self.assertEqual(sorted(s["name"] for s in series), [f"writer-{index}" for index in range(4)])
        self.assertEqual([sum(point["results"] for point in s["points"]) for s in series], [50] * 4)

    def test_a_damaged_file_is_refused_and_left_as_it_was(self):
        history = self.scratch / "history.sqlite"
        self.assertEqual(run_cli(["history", "import", "--history", str(history), self.report]).returncode, 0)
        subprocess.run(["sqlite3", str(history), "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode=DELETE;"],
                       check=True, capture_output=True)
        data = bytearray(history.read_bytes())
        data[16:100] = b"\xa5" * 84  # the header after the magic string: page size, counters
        history.write_bytes(bytes(data))
        before = history.read_bytes()
        marker = self.scratch / "ran"
        runs = [["measure", "--quiet", "--history", str(history), "--", sys.executable, "-c",
                 f"open({str(marker)!r}, 'w')"],
                ["history", "show", "--history", str(history)],
                ["history", "import", "--history", str(history), self.report]]
        for args in runs:
            result = run_cli(args)
            self.assertEqual(result.returncode, 4, (args, result.stdout, result.stderr))
            self.assertIn("left as it was", result.stderr)
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
            self.assertEqual(history.read_bytes(), before)
        self.assertFalse(marker.exists(), "measure ran the command with a refused history")
        self.assertFalse(pathlib.Path(str(history) + "-wal").exists())

    def test_wcp_history_names_the_file_and_import_reads_the_original_probes_reports(self):
        history = self.scratch / "from-env.sqlite"
        interop = pathlib.Path(SOURCE_DIR) / "tests" / "data" / "interop"
        reports = sorted(str(path) for path in interop.glob("*.json"))
        result = run_cli(["history", "import", "--commit", "a" * 40, *reports], env={"WCP_HISTORY": str(history)})
        self.assertEqual(result.returncode, 0, result.stderr)
        shown = self.scratch / "shown.json"
        result = run_cli(["history", "show", "--json", str(shown)], env={"WCP_HISTORY": str(history)})
        self.assertEqual(result.returncode, 0, result.stderr)
        total = sum(point["results"] for s in json.loads(shown.read_text())["series"] for point in s["points"])
        self.assertEqual(total, len(reports))


if __name__ == "__main__":
    unittest.main()
