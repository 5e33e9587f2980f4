"""Every JSON output names its document and version (issue 52, docs/documents.md). One real
`check` of the clean fixture writes a check result, a report and a history; `compare`,
`diagnose` and `history show` then write theirs from them. Each output must carry `document`
and `version` as docs/documents.md lists them, and each must be refused by name where a report
belongs: the readers tell our own documents apart, not only other tools' files."""

import json
import os
import pathlib
import re
import shutil
import tempfile
import unittest

from probe_testlib import FIXTURES, PYTHON, SOURCE_DIR, run_cli

INDEX = pathlib.Path(SOURCE_DIR) / "docs" / "documents.md"


def documented_versions():
    """`document` name -> version, from the index's table rows: | `name` | version | ..."""
    rows = re.findall(r"^\| `([a-z-]+)` \| (\d+) \|", INDEX.read_text(), flags=re.MULTILINE)
    return {name: int(version) for name, version in rows}


class DocumentsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = pathlib.Path(tempfile.mkdtemp(prefix="wcp_documents_"))
        cls.env = {"HOME": str(cls.scratch), "XDG_CACHE_HOME": str(cls.scratch / "cache"),
                   "PYTHONDONTWRITEBYTECODE": "1"}
        budget = cls.scratch / "budget.yaml"
        budget.write_text("version: 1\ndefaults:\n  timeout: 300\n  device: cpu\ncommands:\n"
                          f"  - name: clean\n    command: [{json.dumps(PYTHON)}, app.py]\n"
                          f"    cwd: {json.dumps(os.path.join(FIXTURES, 'clean'))}\n    max_modules: 1\n")
        cls.history = cls.scratch / "history.sqlite"
        cls.outputs = {"check-result": cls.scratch / "check.json"}
        checked = run_cli(["check", str(budget), "--json", str(cls.outputs["check-result"]), "--report-dir",
                           str(cls.scratch / "reports"), "--history", str(cls.history)], env=cls.env, timeout=900)
        if checked.returncode != 0:
            raise AssertionError(f"check exited {checked.returncode}\n{checked.stdout}\n{checked.stderr}")
        report = cls.scratch / "reports" / "clean.json"
        cls.outputs["report"] = report
        for name, args in (("judgement", ["compare", str(report), str(report)]),
                           ("diagnosis", ["diagnose", str(report)]),
                           ("history", ["history", "show", "--history", str(cls.history)])):
            path = cls.scratch / f"{name}.json"
            result = run_cli([*args, "--json", str(path)], env=cls.env)
            if result.returncode not in (0, 1) or not path.is_file():
                raise AssertionError(f"{args[0]} did not write {path}: exit {result.returncode}\n{result.stderr}")
            cls.outputs[name] = path

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_each_output_names_its_document_and_version_as_the_index_lists(self):
        versions = documented_versions()
        for name in ("report", "diagnosis", "judgement", "check-result", "ab", "levers", "history", "bisect",
                     "calibration"):
            self.assertIn(name, versions, f"docs/documents.md does not list `{name}`")
        for name, path in self.outputs.items():
            with self.subTest(document=name):
                document = json.loads(path.read_text())
                self.assertEqual(document.get("document"), name)
                self.assertEqual(document.get("version"), versions[name])
        report = json.loads(self.outputs["report"].read_text())
        self.assertEqual(report["version"], report["schema_version"])

    def test_a_reader_refuses_our_other_documents_by_name(self):
        words = {"judgement": "`compare --json` judgement", "diagnosis": "`diagnose --json` document",
                 "check-result": "`check --json` result", "history": "`history show --json` export"}
        for name, what in words.items():
            path = self.outputs[name]
            with self.subTest(document=name):
                result = run_cli(["compare", str(path), str(self.outputs["report"])], env=self.env)
                self.assertEqual(result.returncode, 2, result.stdout + result.stderr)
                self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
                self.assertIn(f"{path}: a {what}, not a warp-compile-probe report", result.stderr)
                levers = run_cli(["report", str(self.outputs["report"]), str(self.outputs["report"]), "--levers",
                                  str(path)], env=self.env)
                self.assertEqual(levers.returncode, 2, levers.stderr)
                self.assertIn(what, levers.stderr)


if __name__ == "__main__":
    unittest.main()
