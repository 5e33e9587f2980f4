"""`measure --warm-cache DIR` on real Warp (issue 31 part 3): a cache restored from runs of three
different programs (and one run of Warp 1.9.1, whose modules lie at the cache's top level) is
audited exactly. The expected sets and sizes are computed here from the file system, apart from
the tool: the entries the audited program creates in an empty cache, the bytes of every other
entry, and a hash of the whole tree before and after (DIR is never written)."""
import hashlib
import os
import subprocess
import tempfile
import unittest

from probe_testlib import PYTHON, SOURCE_DIR, fixture, measure

OLD_PYTHON = os.environ.get("WCP_PYTHON_WARP_OLD", os.path.join(SOURCE_DIR, ".venv-warp-old", "bin", "python"))
AUDITED = fixture("clean/app.py")
OTHERS = [fixture("late_kernel/fixed.py"), fixture("closure_factory/fixed.py")]


def run_plainly(python, script, cache):
    """The program as CI would run it: no probe, one shared WARP_CACHE_PATH."""
    env = dict(os.environ, WARP_CACHE_PATH=cache, PYTHONDONTWRITEBYTECODE="1", WCP_FIXTURE_DEVICE="cpu")
    subprocess.run([python, script], cwd=os.path.dirname(script), env=env, check=True, capture_output=True,
                   timeout=300, stdin=subprocess.DEVNULL)


def module_entries(cache):
    """{(group, name): bytes} of every module directory: `wp_*` at the top level (group "") or in
    a version folder; bytes are the regular files inside, summed."""
    entries = {}
    for group in [""] + [name for name in os.listdir(cache) if name[:1].isdigit()]:
        folder = os.path.join(cache, group)
        for name in os.listdir(folder):
            path = os.path.join(folder, name)
            if name.startswith("wp_") and os.path.isdir(path) and not os.path.islink(path):
                total = 0
                for root, _, files in os.walk(path):
                    total += sum(os.lstat(os.path.join(root, f)).st_size for f in files
                                 if os.path.isfile(os.path.join(root, f)) and not os.path.islink(os.path.join(root, f)))
                entries[(group, name)] = total
    return entries


def tree_hash(root):
    """Every path, its kind, mode, size, mtime and content: any write into DIR changes it."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(folder, name)
            info = os.lstat(path)
            digest.update(f"{os.path.relpath(path, root)} {info.st_mode} {info.st_size} {info.st_mtime_ns}\n".encode())
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as handle:
                    digest.update(handle.read())
    return digest.hexdigest()


class WarmCacheAudit(unittest.TestCase):
    def test_a_cache_of_three_programs_is_audited_exactly(self):
        with tempfile.TemporaryDirectory() as work:
            shared = os.path.join(work, "restored")
            alone = os.path.join(work, "alone")
            for script in [AUDITED] + OTHERS:
                run_plainly(PYTHON, script, shared)
            run_plainly(OLD_PYTHON, AUDITED, shared)  # Warp 1.9.1: top-level entries, dead weight for 1.19
            run_plainly(PYTHON, AUDITED, alone)
            expected = set(module_entries(alone))
            everything = module_entries(shared)
            self.assertTrue(expected and expected <= set(everything), (expected, everything))
            self.assertTrue(any(group == "" for group, _ in everything), "Warp 1.9.1 wrote no top-level entry")
            unused = {key: size for key, size in everything.items() if key not in expected}
            self.assertGreaterEqual(len(unused), 3)
            before = tree_hash(shared)

            prune = os.path.join(work, "prune.txt")
            result, report = measure([PYTHON, AUDITED], extra_args=["--warm-cache", shared, "--prune-list", prune],
                                     env={"WCP_FIXTURE_DEVICE": "cpu"})
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertEqual(tree_hash(shared), before, "DIR changed")

            audit = report["cache_audit"]
            self.assertTrue(audit["pass_ok"] and audit["loads_observed"], audit)
            self.assertEqual(audit["run_group"], report["warp_version"])
            used = {(e["group"], e["name"]) for e in audit["entries"] if e["in_dir"] and e["needed"]}
            self.assertEqual(used, expected)
            self.assertFalse([e for e in audit["entries"] if not e["in_dir"]], "the warm pass built something")
            self.assertTrue(audit["modules"] and all(m["served"] == "dir" for m in audit["modules"]), audit["modules"])
            totals = audit["totals"]
            self.assertEqual(totals["unused_entries"], len(unused))
            self.assertEqual(totals["unused_bytes"], sum(unused.values()))
            self.assertEqual(totals["used_bytes"], sum(everything[key] for key in expected))
            self.assertEqual(totals["dir_bytes"], sum(everything.values()))
            self.assertEqual(totals["needed_bytes"], totals["used_bytes"])

            with open(prune, encoding="utf-8") as handle:
                listed = handle.read().splitlines()
            self.assertEqual(sorted(listed),
                             sorted(os.path.join(os.path.abspath(shared), group, name) if group
                                    else os.path.join(os.path.abspath(shared), name) for group, name in unused))
            self.assertEqual(audit["prune_list"], prune)
            self.assertIn("Warm cache audit of", result.stdout)
            self.assertIn(f"Used {len(expected)} of {len(everything)} entries", result.stdout)


if __name__ == "__main__":
    unittest.main()
