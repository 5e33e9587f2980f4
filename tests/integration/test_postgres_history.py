"""A team's history on PostgreSQL (issue 51), against a real server: the throwaway cluster that
.ci/run starts (ci/postgres_cluster.sh) and names in WCP_TEST_POSTGRES_URL. Without it every
test here is skipped, saying why. Each test works in a database of its own.

- 4 concurrent writers x 10 results, from two runner classes, lose no row, and `history show`
  keeps one series per class;
- `history import --from` copies an SQLite history into PostgreSQL and back with the same rows;
- the server going away mid-run: `measure --history` says so in one line, exits 4, and its
  --json report keeps the measurement; nothing half-written is left in the database;
- a password in the URL never reaches the output;
- `check --against-branch main` judges a pull request's run against main's recent runs of the
  same runner class only, and below 3 matching runs says so and judges nothing;
- `history show --html` from the database renders in headless Chromium: a trend per runner
  class with its plotted points, and each branch's latest verdict.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import urllib.parse
import uuid

from probe_testlib import SOURCE_DIR, fixture, run_cli, run_cli_concurrently

URL = os.environ.get("WCP_TEST_POSTGRES_URL", "")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CLUSTER_SCRIPT = os.path.join(SOURCE_DIR, "ci", "postgres_cluster.sh")
REPORT = os.path.join(SOURCE_DIR, "tests", "data", "interop", "clean-app.json")
PYTHON = os.environ.get("WCP_PYTHON", sys.executable)


def psql(url, sql):
    return subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-Atc", sql], capture_output=True, text=True,
                          check=True).stdout.strip()


def with_database(url, name):
    return re.sub(r"^(postgres(?:ql)?://[^/?]*)/[^?]*", lambda match: f"{match.group(1)}/{name}", url)


def cluster_dir(url):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["host"][0]


@unittest.skipUnless(URL, "no PostgreSQL test server: WCP_TEST_POSTGRES_URL is unset (.ci/run starts one with "
                          "ci/postgres_cluster.sh)")
@unittest.skipUnless(shutil.which("psql"), "no psql (Debian package postgresql-client)")
class PostgresHistoryTest(unittest.TestCase):
    def setUp(self):
        self.database = "wcp_" + uuid.uuid4().hex[:12]
        psql(URL, f"CREATE DATABASE {self.database}")
        self.url = with_database(URL, self.database)
        self.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_pg_"))

    def tearDown(self):
        shutil.rmtree(self.scratch, ignore_errors=True)
        subprocess.run(["psql", URL, "-Atc", f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)"],
                       capture_output=True)

    def shown_series(self, history):
        shown = self.scratch / "shown.json"
        result = run_cli(["history", "show", "--history", history, "--json", str(shown)])
        self.assertEqual(result.returncode, 0, result.stderr)
        return json.loads(shown.read_text())["series"]

    def test_four_writers_of_two_classes_lose_no_row(self):
        run_cli_concurrently(self, [["history", "import", "--history", self.url, "--name", "app", "--machine-class",
                                      f"class-{index % 2}", "--branch", "main", "--commit", f"{index:040d}",
                                      *([REPORT] * 10)] for index in range(4)], 10)
        self.assertEqual(psql(self.url, "SELECT count(*) FROM results"), "40")
        self.assertEqual(psql(self.url, "SELECT count(DISTINCT id) FROM results"), "40")
        self.assertEqual(psql(self.url, "SELECT string_agg(DISTINCT machine_class, ',' ORDER BY machine_class) "
                                        "FROM results"), "class-0,class-1")
        series = self.shown_series(self.url)
        self.assertEqual(len(series), 2, [s["machine"] for s in series])
        self.assertEqual(sorted(sum(p["results"] for p in s["points"]) for s in series), [20, 20])

    def test_the_html_page_has_a_trend_per_class_and_the_branches_verdicts(self):
        self.assertIsNotNone(CHROMIUM, "chromium is installed by ci/setup.sh")
        run_cli_concurrently(self, [["history", "import", "--history", self.url, "--name", "app", "--machine-class",
                                      f"class-{index % 2}", "--branch", "main", "--commit", f"{index:040d}",
                                      REPORT] for index in range(4)], 1)
        pull_request = run_cli(["history", "import", "--history", self.url, "--name", "app", "--machine-class",
                                "class-0", "--branch", "feature-x", "--commit", "f" * 40, REPORT])
        self.assertEqual(pull_request.returncode, 0, pull_request.stderr)
        page = self.scratch / "history.html"
        result = run_cli(["history", "show", "--history", self.url, "--branch", "main", "--html", str(page)])
        self.assertEqual(result.returncode, 0, result.stderr)
        dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                              f"--user-data-dir={self.scratch / 'profile'}", "--dump-dom", page.as_uri()],
                             capture_output=True, text=True, timeout=180)
        self.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
        self.assertEqual(dom.stdout.count('<section class="series">'), 2, dom.stdout[:3000])
        for machine_class in ("class-0", "class-1"):
            self.assertIn(machine_class, dom.stdout)
        # Two main commits per class, each a point of the cold module work plot; the pull
        # request's run is not in main's trend.
        self.assertEqual(len(re.findall(r'<circle class="point[^"]*" data-commit="[0-9a-f]+" data-ms=', dom.stdout)),
                         4, dom.stdout[:3000])
        self.assertNotIn('data-commit="fffffff" data-ms=', dom.stdout)
        self.assertEqual(re.findall(r'<tr data-branch="([^"]+)"', dom.stdout), ["feature-x", "main", "main"])

    def test_a_pull_request_is_judged_against_main_on_its_own_class(self):
        budget = self.scratch / "budget.yaml"
        budget.write_text(
            "version: 1\n"
            "defaults:\n  samples: 1\n  device: cpu\n"
            "commands:\n"
            f"  - name: clean\n    command: [{json.dumps(PYTHON)}, {json.dumps(fixture('clean') + '/app.py')}]\n"
            "    max_identities: 5\n")
        env = dict(os.environ, XDG_CACHE_HOME=str(self.scratch / "cache"))

        def check(branch, machine_class, *extra):
            result = run_cli(["check", str(budget), "--quiet", "--history", self.url, "--branch", branch,
                              "--machine-class", machine_class, "--json", str(self.scratch / "check.json"), *extra],
                             env=env)
            self.assertIn(result.returncode, (0, 1), result.stdout + result.stderr)
            return result, json.loads((self.scratch / "check.json").read_text())

        for machine_class in ("class-a", "class-a", "class-a", "class-b"):
            check("main", machine_class)
        judged, document = check("pr-7", "class-a", "--against-branch", "main")
        outcome = next(o for o in document["commands"][0]["outcomes"] if o["budget"] == "baseline")
        self.assertNotEqual(outcome["verdict"], "not judged", judged.stdout)
        self.assertIn("against the last 3 runs of main on class-a", outcome["note"])
        alone, document = check("pr-7", "class-b", "--against-branch", "main")
        outcome = next(o for o in document["commands"][0]["outcomes"] if o["budget"] == "baseline")
        self.assertEqual(outcome["verdict"], "not judged", alone.stdout)
        self.assertIn("not enough matching runs of main on class-b", outcome["note"])
        self.assertIn("1 in the history, needs 3", outcome["note"])
        self.assertIn("NOT JUDGED", alone.stdout)
        # The pull request's runs were recorded on their branch, and never joined main's.
        self.assertEqual(psql(self.url, "SELECT count(*) FROM results WHERE branch = 'pr-7'"), "2")

    def test_import_from_sqlite_and_back_keeps_the_rows(self):
        first = self.scratch / "first.sqlite"
        for index in range(3):
            result = run_cli(["history", "import", "--history", str(first), "--commit", f"{index:040d}",
                              "--branch", "feature", "--machine-class", "gh-4core", REPORT])
            self.assertEqual(result.returncode, 0, result.stderr)
        to_postgres = run_cli(["history", "import", "--history", self.url, "--from", str(first)])
        self.assertEqual(to_postgres.returncode, 0, to_postgres.stderr)
        self.assertIn("imported 3 results", to_postgres.stdout)
        again = run_cli(["history", "import", "--history", self.url, "--from", str(first)])
        self.assertIn("imported 0 results", again.stdout)  # already there: nothing doubled
        back = self.scratch / "back.sqlite"
        result = run_cli(["history", "import", "--history", f"sqlite:{back}", "--from", self.url])
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.shown_series(str(first)), self.shown_series(str(back)))
        self.assertEqual(self.shown_series(str(first)), self.shown_series(self.url))
        self.assertEqual(psql(self.url, "SELECT DISTINCT branch || ' ' || machine_class FROM results"),
                         "feature gh-4core")

    def test_a_server_gone_mid_run_keeps_the_measurement(self):
        directory = cluster_dir(URL)
        report = self.scratch / "report.json"
        program = self.scratch / "app.py"
        stopped = self.scratch / "stopped"
        # The program stops the server while it runs, after `measure` opened the history (its
        # warm run finds it stopped already; the kill is then a no-op, and the run succeeds).
        program.write_text(
            "import subprocess, sys\n"
            f"subprocess.run(['bash', {CLUSTER_SCRIPT!r}, 'kill', {directory!r}], capture_output=True)\n"
            f"open({str(stopped)!r}, 'w').close()\n")
        try:
            result = run_cli(["measure", "--quiet", "--samples", "1", "--history", self.url, "--json", str(report),
                              "--", sys.executable, str(program)])
        finally:
            subprocess.run(["bash", CLUSTER_SCRIPT, "restart", directory], check=True)
        self.assertTrue(stopped.exists())
        self.assertEqual(result.returncode, 4, (result.stdout, result.stderr))
        errors = [line for line in result.stderr.splitlines() if line.strip()]
        self.assertEqual(len(errors), 1, result.stderr)
        self.assertIn("could not be stored", errors[0])
        self.assertIn("the measurement is kept", errors[0])
        measured = json.loads(report.read_text())
        self.assertEqual(measured["samples"], 1)
        self.assertIsNotNone(measured["cold_wall_ms_median"])
        self.assertIsNotNone(measured["warm_wall_ms_median"])
        # The history was created when measure opened it; the append never landed, half or whole.
        self.assertEqual(psql(self.url, "SELECT count(*) FROM results"), "0")

    def test_a_password_is_never_printed(self):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.url).query)
        secret = "hunter2-" + uuid.uuid4().hex[:6]
        with_secret = (f"postgresql://nobody-here:{secret}@/{self.database}?host={query['host'][0]}"
                       f"&port={query['port'][0]}")
        result = run_cli(["history", "show", "--history", with_secret])
        self.assertEqual(result.returncode, 4, result.stderr)
        self.assertNotIn(secret, result.stdout + result.stderr)
        self.assertIn("nobody-here", result.stderr)

    def test_another_programs_results_table_is_refused(self):
        psql(self.url, "CREATE TABLE results(x integer)")
        result = run_cli(["history", "import", "--history", self.url, REPORT])
        self.assertEqual(result.returncode, 4, result.stderr)
        self.assertIn("not a warp-compile-probe history", result.stderr)
        self.assertEqual(psql(self.url, "SELECT count(*) FROM pg_tables WHERE tablename = 'wcp_history'"), "0")


if __name__ == "__main__":
    unittest.main()
