"""Other tools' files are not reports (issue 50). A benchmark-minded project has hyperfine,
pytest-benchmark, Google Benchmark and asv output lying around; each is generated here by the
real tool, then given to every command that reads a report. Each must refuse it with one line
naming what it looks like, exit 2, and write nothing: no history row, no output file. `{}`, `[]`
and a truncated report are refused the same way, and a real report of the original probe is
still read (the control: the refusal is about the file, not the command)."""

import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("WCP_CLI", "warp-compile-probe")
SOURCE = pathlib.Path(os.environ.get("WCP_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
PYTHON = os.environ.get("WCP_PYTHON", sys.executable)
PROBE_REPORT = SOURCE / "tests" / "data" / "interop" / "clean-app.json"
OUR_REPORT = SOURCE / "tests" / "data" / "cuda-recorded" / "probe" / "clean_app.json"


def run(args, cwd, env=None, timeout=300):
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


class ForeignFilesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_foreign_"))
        cls.env = dict(os.environ, HOME=str(cls.scratch / "home"), PYTHONDONTWRITEBYTECODE="1")
        (cls.scratch / "home").mkdir()
        # What each file is, and the words the refusal must use for it.
        cls.files = {}
        cls.files["hyperfine"] = (cls.make_hyperfine(), "hyperfine JSON export")
        cls.files["pytest-benchmark"] = (cls.make_pytest_benchmark(), "pytest-benchmark JSON")
        cls.files["google-benchmark"] = (cls.make_google_benchmark(), "Google Benchmark JSON")
        results, machine, benchmarks = cls.make_asv()
        cls.files["asv-results"] = (results, "asv results file")
        cls.files["asv-machine"] = (machine, "asv machine file")
        cls.files["asv-benchmarks"] = (benchmarks, "asv benchmarks.json")
        for name, text, words in (("empty-object", "{}", "empty JSON object"), ("array", "[]", "JSON array")):
            path = cls.scratch / f"{name}.json"
            path.write_text(text + "\n")
            cls.files[name] = (path, words)
        truncated = cls.scratch / "truncated.json"
        whole = OUR_REPORT.read_text()
        truncated.write_text(whole[: len(whole) // 2])
        cls.files["truncated-report"] = (truncated, "truncated JSON")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def generated(cls, result, path, what):
        if result.returncode != 0 or not path.is_file():
            raise AssertionError(f"{what} did not write {path}: exit {result.returncode}\n"
                                 f"{result.stdout}\n{result.stderr}")
        return path

    @classmethod
    def make_hyperfine(cls):
        hyperfine = shutil.which("hyperfine")
        if hyperfine is None:
            raise AssertionError("hyperfine is not installed: run ci/setup.sh (Debian package hyperfine)")
        path = cls.scratch / "hyperfine.json"
        return cls.generated(run([hyperfine, "--runs", "2", "--export-json", str(path), "true"], cls.scratch,
                                 cls.env), path, "hyperfine")

    @classmethod
    def make_pytest_benchmark(cls):
        suite = cls.scratch / "pb"
        suite.mkdir()
        (suite / "test_sum.py").write_text("def test_sum(benchmark):\n    benchmark(sum, range(10))\n")
        path = cls.scratch / "pytest-benchmark.json"
        return cls.generated(run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--benchmark-json={path}",
                                  "test_sum.py"], suite, cls.env), path, "pytest-benchmark")

    @classmethod
    def make_google_benchmark(cls):
        source = cls.scratch / "gb.cpp"
        source.write_text("#include <benchmark/benchmark.h>\n"
                          "static void BM_sum(benchmark::State& state) {\n"
                          "  for (auto _ : state) benchmark::DoNotOptimize(state.iterations());\n"
                          "}\nBENCHMARK(BM_sum);\n")
        binary = cls.scratch / "gb"
        built = run(["c++", "-O1", str(source), "-o", str(binary), "-lbenchmark", "-lbenchmark_main", "-lpthread"],
                    cls.scratch, cls.env)
        if built.returncode != 0:
            raise AssertionError(f"building a Google Benchmark program failed:\n{built.stderr}")
        result = run([str(binary), "--benchmark_format=json", "--benchmark_min_time=0.01"], cls.scratch, cls.env)
        path = cls.scratch / "google-benchmark.json"
        path.write_text(result.stdout)
        return cls.generated(result, path, "Google Benchmark")

    @classmethod
    def make_asv(cls):
        project = cls.scratch / "asv"
        (project / "benchmarks").mkdir(parents=True)
        (project / "benchmarks" / "__init__.py").write_text("")
        (project / "benchmarks" / "bench.py").write_text("def time_sum():\n    sum(range(100))\n")
        (project / "asv.conf.json").write_text(
            '{"version": 1, "project": "p", "repo": ".", "environment_type": "existing",'
            ' "benchmark_dir": "benchmarks", "results_dir": "results", "html_dir": "html", "env_dir": "env"}\n')
        git = ["git", "-c", "user.email=t@example.com", "-c", "user.name=t"]
        for step in (["git", "init", "-q"], ["git", "add", "-A"], [*git, "commit", "-qm", "bench"]):
            run(step, project, cls.env).check_returncode()
        asv = [PYTHON, "-m", "asv"]
        run([*asv, "machine", "--yes", "--machine", "m"], project, cls.env).check_returncode()
        head = run(["git", "rev-parse", "HEAD"], project, cls.env).stdout.strip()
        ran = run([*asv, "run", "--quick", "-E", f"existing:{PYTHON}", "--set-commit-hash", head], project, cls.env)
        machine_dir = project / "results" / "m"
        results = [path for path in machine_dir.glob("*.json") if path.name != "machine.json"]
        if ran.returncode != 0 or len(results) != 1:
            raise AssertionError(f"asv run wrote {results}: exit {ran.returncode}\n{ran.stdout}\n{ran.stderr}")
        return results[0], machine_dir / "machine.json", project / "results" / "benchmarks.json"

    def assert_refused(self, result, path, words):
        self.assertEqual(result.returncode, 2, f"{result.stdout}\n{result.stderr}")
        lines = result.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertIn(str(path), lines[0])
        self.assertIn(words, lines[0])
        self.assertNotIn("Verdict", result.stdout)
        self.assertNotIn("Nothing was measured", result.stdout)

    def test_compare_and_diagnose_refuse_each_file_by_name(self):
        for name, (path, words) in self.files.items():
            with self.subTest(file=name):
                self.assert_refused(run([CLI, "compare", str(path), str(path)], self.scratch, self.env), path, words)
                # A foreign candidate beside a real baseline is refused too.
                self.assert_refused(run([CLI, "compare", str(PROBE_REPORT), str(path)], self.scratch, self.env),
                                    path, words)
                self.assert_refused(run([CLI, "diagnose", str(path)], self.scratch, self.env), path, words)

    def test_report_writes_nothing_for_a_foreign_file(self):
        for name, (path, words) in self.files.items():
            with self.subTest(file=name):
                markdown = self.scratch / f"{name}.md"
                result = run([CLI, "report", str(path), "--markdown", str(markdown)], self.scratch, self.env)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn(words, result.stderr)
                self.assertFalse(markdown.exists())

    def test_history_import_stores_nothing(self):
        for name, (path, words) in self.files.items():
            with self.subTest(file=name):
                history = self.scratch / f"{name}.sqlite"
                # A good report first in the list: a bad one after it still stores nothing.
                result = run([CLI, "history", "import", "--history", str(history), str(PROBE_REPORT), str(path)],
                             self.scratch, self.env)
                self.assert_refused(result, path, words)
                # Every report is read before the history is opened: not even an empty file.
                self.assertFalse(history.exists())

    def test_a_history_database_is_named_as_one(self):
        history = self.scratch / "real.sqlite"
        imported = run([CLI, "history", "import", "--history", str(history), str(PROBE_REPORT)], self.scratch,
                       self.env)
        self.assertEqual(imported.returncode, 0, imported.stderr)
        self.assert_refused(run([CLI, "diagnose", str(history)], self.scratch, self.env), history, "SQLite database")

    def test_reports_are_still_read(self):
        for report in (PROBE_REPORT, OUR_REPORT):
            with self.subTest(report=report.name):
                result = run([CLI, "compare", str(report), str(report)], self.scratch, self.env)
                self.assertIn(result.returncode, (0, 1), result.stderr)
                self.assertIn("Verdict", result.stdout)


if __name__ == "__main__":
    unittest.main()
