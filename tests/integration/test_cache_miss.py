"""`measure --warm-cache DIR` says why DIR did not serve a module it built fresh (issue 41 item 2):
DIR is the kernel cache of an older run of a copy of fixtures/clean/app.py (one module, three
kernels), and the program then changes one way at a time. The kernel whose body changed is named,
an option-only change (enable_backward) is named with its values, and a cache holding only Warp
1.9.1's entry of the module says there is no entry of that name for this Warp. DIR is never written."""
import os
import re
import shutil
import tempfile
import unittest

from probe_testlib import PYTHON, fixture, measure
from test_cache_audit import OLD_PYTHON, run_plainly, tree_hash

APP = fixture("clean/app.py")


def one_line(text):
    """The output with its wrapping undone, so a sentence reads as one."""
    return re.sub(r"\s+", " ", text)


class WarmCacheMissExplained(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.mkdtemp(prefix="wcp-cache-miss-")
        with open(APP, encoding="utf-8") as handle:
            cls.original = handle.read()
        cls.restored = os.path.join(cls.work, "restored")
        run_plainly(PYTHON, cls.write("older.py", cls.original), cls.restored)
        cls.old_entries = sorted(os.listdir(os.path.join(cls.restored, os.listdir(cls.restored)[0])))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    @classmethod
    def write(cls, name, text):
        path = os.path.join(cls.work, name)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return path

    def audit(self, script, cache):
        before = tree_hash(cache)
        result, report = measure([PYTHON, script], extra_args=["--warm-cache", cache], env={"WCP_FIXTURE_DEVICE": "cpu"})
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(tree_hash(cache), before, "DIR changed")
        modules = report["cache_audit"]["modules"]
        self.assertEqual([m["served"] for m in modules], ["compiled"], modules)
        self.assertIsNotNone(modules[0]["miss"], modules)
        return result, modules[0]["miss"]

    def test_the_kernel_whose_body_changed_is_named(self):
        self.assertEqual(len(self.old_entries), 1, self.old_entries)
        changed = self.original.replace("a[i] = a[i] * s\n", "a[i] = a[i] * s + 1.0\n")
        self.assertNotEqual(changed, self.original)
        result, miss = self.audit(self.write("changed_kernel.py", changed), self.restored)
        self.assertEqual(miss["cause"], "kernels_differ", miss)
        closest = miss["closest"][0]
        self.assertEqual(closest["entry"], self.old_entries[0])
        self.assertEqual(closest["kernels_changed"], ["scale"])
        self.assertEqual(sorted(closest["kernels_identical"]), ["fill", "reduce_sum"])
        self.assertEqual(closest["options"], [])
        self.assertIn(f"__main__: not served — kernel scale's generated source differs from the cached entry "
                      f"{self.old_entries[0]}; 2 other kernels identical", one_line(result.stdout))

    def test_an_option_only_change_is_named(self):
        self.assertIn("wp.config.enable_backward = False", self.original)
        with_backward = self.original.replace("wp.config.enable_backward = False", "wp.config.enable_backward = True")
        result, miss = self.audit(self.write("with_backward.py", with_backward), self.restored)
        self.assertEqual(miss["cause"], "options_differ", miss)
        closest = miss["closest"][0]
        self.assertEqual(closest["kernels_changed"] + closest["kernels_added"] + closest["kernels_removed"], [])
        self.assertEqual(closest["options"], [{"option": "enable_backward", "entry": "False", "build": "True"}])
        self.assertIn("built with other options: enable_backward False -> True", one_line(result.stdout))

    def test_no_entry_of_that_name_for_this_warp_is_said(self):
        old_only = os.path.join(self.work, "old_only")
        run_plainly(OLD_PYTHON, self.write("older_warp.py", self.original), old_only)
        result, miss = self.audit(self.write("same.py", self.original), old_only)
        self.assertEqual(miss["cause"], "no_entry", miss)
        self.assertEqual(miss["same_name_entries"], 0)
        self.assertEqual(miss["other_version_entries"], 1)
        self.assertIn("__main__: not served — DIR has no entry of that name (wp___main___*) in", one_line(result.stdout))
        self.assertIn("1 in other Warp versions' folders, which this Warp never reads", one_line(result.stdout))


if __name__ == "__main__":
    unittest.main()
