"""The seed's workflow end to end, on real fixtures: the original probe's two command lines run
unchanged through scripts/warp_compile_probe.py (abbreviations and --warm included); `ab`
interleaves two arms and judges them on pairs; `report` writes the results (Markdown, HTML and
the ledger); `measure --trace` writes a trace Perfetto opens; and the HTML report renders in a
real headless browser (Debian's chromium) with one chart row per compiled identity."""

import json
import os
import pathlib
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import zlib

from probe_testlib import CLI, PYTHON, SOURCE_DIR, run_cli

SOURCE = pathlib.Path(SOURCE_DIR)
LAUNCHER = SOURCE / "scripts" / "warp_compile_probe.py"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def png_rows(path):
    """Decoded rows of an 8-bit RGB(A) PNG (enough to tell a blank page from a drawn one)."""
    data = pathlib.Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat, width, height, channels = 8, b"", 0, 0, 0
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8
            channels = {2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels + 1
    return [raw[row * stride + 1:(row + 1) * stride] for row in range(height)]


def levers_document(schema):
    """A measured ledger of two levers: one that saved, one that did not arrive (its clocks null)."""
    clock = {"before_ms": 1234.5, "after_ms": 1114.5, "delta_ms": -120.0, "band_ms": 8.0,
             "verdict": "IMPROVED", "detail": "judged on 1 pair"}
    unmeasured = {"before_ms": None, "after_ms": None, "delta_ms": None, "band_ms": None, "verdict": None,
                  "detail": None}
    return {"schema_version": schema, "kind": "levers", "command": ["python", "app.py"], "cwd": "/app",
            "warp_version": "1.19.0", "device": "cpu", "pairs": 1, "baseline_source": "measured",
            "runs_planned": 6, "wall_s": 12.5, "outcomes": [
                {"lever": {"id": "backward-off", "kind": "config", "name": "enable_backward", "value": False,
                           "value_json": "false", "modules": [], "kernels": [], "mechanism": "CS-10"},
                 "status": "measured", "arrival": "the hashes of 1 target module moved", "cold_module": clock,
                 "compile_elapsed": clock, "judged_on": "cold module work", "behaviour": "gradients",
                 "workload": "same", "take_it": "app.py:1: wp.config.enable_backward = False"},
                {"lever": {"id": "keep-kernel-cache", "kind": "noop_call", "name": "clear_kernel_cache"},
                 "status": "did_not_arrive", "reason": "no call was intercepted", "cold_module": unmeasured,
                 "compile_elapsed": unmeasured, "workload": "same"}]}


class WorkflowTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_workflow_"))
        cls.env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", XDG_CACHE_HOME=str(cls.scratch), WCP_CLI=CLI)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def launcher(self, *args, timeout=900):
        return subprocess.run([PYTHON, str(LAUNCHER), *args], capture_output=True, text=True, cwd=SOURCE,
                              env=self.env, timeout=timeout)

    def test_the_seeds_two_command_lines_run_unchanged(self):
        baseline, candidate = self.scratch / "baseline.json", self.scratch / "candidate.json"
        # Verbatim from the seed's step 1 and step 5 (with one sample to keep the test short).
        first = self.launcher("measure", "--samples", "1", "--json", str(baseline), "--", PYTHON,
                              "fixtures/late_kernel/app.py")
        self.assertEqual(first.returncode, 0, first.stderr)
        # argparse abbreviations and the accepted --warm, as the original took them.
        second = self.launcher("measure", "--sam", "1", "--warm", "--js", str(candidate), "--", PYTHON,
                               "fixtures/late_kernel/fixed.py")
        self.assertEqual(second.returncode, 0, second.stderr)
        compared = self.launcher("compare", "--verbose", str(baseline), str(candidate))
        # The fix compiles less and nothing more: never a REGRESSION (rule 4), so exit 0, and at one
        # sample either credited or INCONCLUSIVE with the reason (test_compare.py and
        # test_processes.py require the credit for larger fixes).
        self.assertEqual(compared.returncode, 0, compared.stdout + compared.stderr)
        self.assertRegex(compared.stdout, r"Verdict: (IMPROVED|INCONCLUSIVE)")
        if "Verdict: INCONCLUSIVE" in compared.stdout:
            self.assertIn("less work, not yet measurable", compared.stdout)
        # The same binary, the same answer.
        direct = run_cli(["compare", "--verbose", str(baseline), str(candidate)], env=self.env)
        self.assertEqual(direct.stdout, compared.stdout)
        self.assertEqual(direct.returncode, compared.returncode)
        self.assertEqual(self.launcher("--help").returncode, 0)
        self.assertEqual(self.launcher("measure").returncode, 2)  # no command: a usage error, nothing run

    def test_the_launcher_says_how_to_build_a_missing_binary(self):
        env = dict(self.env, WCP_CLI="/nonexistent", PATH="/usr/bin:/bin")
        with tempfile.TemporaryDirectory() as elsewhere:
            copy = pathlib.Path(elsewhere) / "warp_compile_probe.py"
            shutil.copy(LAUNCHER, copy)
            result = subprocess.run([PYTHON, str(copy), "compare", "a", "b"], capture_output=True, text=True, env=env)
        self.assertEqual(result.returncode, 2)
        self.assertIn("bash ci/setup.sh", result.stderr)

    def test_ab_interleaves_and_judges_on_pairs(self):
        out = self.scratch / "ab.json"
        result = run_cli(["ab", "--samples", "2", "--quiet", "--json", str(out), "--", PYTHON,
                          "fixtures/late_kernel/app.py", "--vs", PYTHON, "fixtures/late_kernel/fixed.py"],
                         env=self.env, cwd=SOURCE, timeout=900)
        document = json.loads(out.read_text())
        self.assertEqual(document["kind"], "ab")
        self.assertEqual((document["document"], document["version"]), ("ab", 2))  # docs/documents.md
        self.assertEqual(document["order"], ["AB", "BA"])
        comparison = document["comparison"]
        self.assertEqual(comparison["cold_module_work"]["paired"]["pairs"], 2)
        self.assertEqual(comparison["workload"]["status"], "preserved")
        self.assertEqual([s["index"] for s in document["baseline"]["sample_results"]], [1, 2])
        self.assertIn("paired over 2 pairs", result.stdout)
        # Two pairs can never be credited: even both faster is p = 0.25 for the sign test, so each
        # clock is judged within noise and the verdict is INCONCLUSIVE, exit 0, saying why when a
        # median delta left its band (test_processes.py: five pairs of a larger fix are IMPROVED).
        self.assertEqual(comparison["verdict"], "INCONCLUSIVE", result.stdout)
        self.assertEqual(comparison["exit_code"], 0)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        for clock in ("cold_module_work", "compile_elapsed"):
            judged = comparison[clock]
            self.assertIn(judged["direction"], ("within noise", "unavailable"), clock)
            if judged["direction"] == "within noise" and abs(judged["delta_ms"]) > judged["band_ms"]:
                self.assertTrue(any("chance produces too often" in note for note in comparison["notes"]), clock)

    def test_report_html_renders_in_a_real_browser(self):
        baseline, candidate = self.scratch / "r-base.json", self.scratch / "r-cand.json"
        trace = self.scratch / "trace.json"
        for path, script, extra in [(baseline, "late_kernel/app.py", ["--trace", str(trace)]),
                                    (candidate, "late_kernel/fixed.py", [])]:
            result = run_cli(["measure", "--samples", "1", "--quiet", "--json", str(path), *extra, "--", PYTHON,
                              f"fixtures/{script}"], env=self.env, cwd=SOURCE, timeout=900)
            self.assertEqual(result.returncode, 0, result.stderr)
        events = json.loads(trace.read_text())["traceEvents"]
        builds = [e for e in events if e["ph"] == "X" and e["cat"] == "compiled"]
        self.assertEqual(len(builds), 2)  # late_kernel builds __main__ twice in the cold run
        self.assertTrue(all(e["dur"] > 0 and "hash" in e["args"] for e in builds))

        ledger = self.scratch / "ledger.yaml"
        ledger.write_text('declined:\n  - option: "max_unroll=4"\n    measured: "-2%, inside noise"\n'
                          '    why_not: "changes generated code for no measured gain"\n')
        # A `levers --json` document (docs/levers-schema.md), as `report --levers` reads it back.
        schema = json.loads(baseline.read_text())["schema_version"]
        levers = self.scratch / "levers.json"
        levers.write_text(json.dumps(levers_document(schema)))
        html, markdown = self.scratch / "report.html", self.scratch / "report.md"
        result = run_cli(["report", str(baseline), str(candidate), "--ledger", str(ledger), "--levers", str(levers),
                          "--html", str(html), "--markdown", str(markdown)], env=self.env)
        self.assertIn(result.returncode, (0, 1), result.stderr)
        self.assertIn("Levers: 2 levers measured: 1 saves 120 ms ± 8 cold (backward-off), 1 did not arrive",
                      result.stdout)
        text = markdown.read_text()
        for heading in ("# Compile-time results", "## What compiling still costs", "Fixed by this change",
                        "## Options measured and not taken", "max_unroll=4", "## Levers, measured"):
            self.assertIn(heading, text)
        self.assertIn("| `keep-kernel-cache` | `wp.clear_kernel_cache() made a no-op` | did not arrive | unavailable |",
                      text)
        # Another kind of document is refused as a usage error, naming the file.
        ab = self.scratch / "ab.json"
        ab.write_text(json.dumps(dict(levers_document(schema), kind="ab")))
        refused = run_cli(["report", str(baseline), str(candidate), "--levers", str(ab)], env=self.env)
        self.assertEqual(refused.returncode, 2, refused.stdout)
        self.assertIn("ab.json", refused.stderr)
        self.assertIn("Kernel defined after its module loaded", text)  # plain words, not only CS labels
        identities = {(e["name"], e["hash"]) for r in (baseline, candidate)
                      for e in json.loads(r.read_text())["module_events"] if e["pass"] == "cold" and e["status"] == "compiled"}

        self.assertIsNotNone(CHROMIUM, "chromium is installed by ci/setup.sh")
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--user-data-dir={self.scratch / 'profile'}"]
        dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", html.as_uri()], capture_output=True, text=True, timeout=180)
        self.assertEqual(dom.returncode, 0, dom.stderr[-2000:])
        self.assertEqual(len(re.findall(r'<g class="identity"', dom.stdout)), len(identities), dom.stdout[:2000])
        self.assertEqual(len(re.findall(r'<rect class="bar (?:before|after)"', dom.stdout)), 3)  # 2 before + 1 after
        self.assertIn('class="timeline"', dom.stdout)
        self.assertIn("<h2>Levers, measured</h2>", dom.stdout)
        self.assertIn("<code>backward-off</code>", dom.stdout)
        shot = self.scratch / "report.png"
        subprocess.run([CHROMIUM, *flags, "--window-size=900,1600", f"--screenshot={shot}", html.as_uri()],
                       capture_output=True, timeout=180)
        rows = png_rows(shot)
        self.assertEqual(len(rows), 1600)
        self.assertGreater(len(set(rows)), 50, "the page rendered as (nearly) blank")


if __name__ == "__main__":
    unittest.main()
