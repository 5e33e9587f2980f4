"""A generated git repository of eight commits, the history that `bisect` and `history show`
are tested on (issue 23's done-when; issue 27: edits of kernel code are not steps):

  1  a Warp app with one kernel, and its budget file perf/compile_budget.yaml
  2  edits a constant in the kernel (new hash, same structure)
  3  the app exits 1 before importing Warp (a broken commit: every sample fails)
  4  repairs commit 3 and edits the constant again
  5  defines a second kernel after the module loaded: module __main__ is built twice
  6  edits the constant again (both of __main__'s hashes change; still built twice)
  7  a print outside any kernel (the module's hashes stay)
  8  README change

Only commit 5 changes the structure of what Warp compiles (identities 1 -> 2, __main__ built
twice); commits 2, 4 and 6 only edit kernel code; only commits 5-8 fail
`max_builds_per_module: 1`. The budget runs `${WCP_PYTHON} app.py` from the repository root,
so set WCP_PYTHON.
"""
import os
import subprocess

APP_HEAD = '''"""A small Warp program whose history the tests walk."""
import os
'''

APP_BODY = '''
import warp as wp

wp.config.enable_backward = False
wp.init()

N = 64


@wp.kernel
def scale(a: wp.array(dtype=wp.float32), s: wp.float32):
    i = wp.tid()
    a[i] = a[i] * s + BIAS


a = wp.zeros(N, dtype=wp.float32, device="cpu")
wp.launch(scale, dim=N, inputs=[a, 2.0], device="cpu")
'''

LATE_KERNEL = '''

# Defined after the module loaded: its first launch rebuilds module __main__.
@wp.kernel
def offset(a: wp.array(dtype=wp.float32), o: wp.float32):
    i = wp.tid()
    a[i] = a[i] + o


wp.launch(offset, dim=N, inputs=[a, 1.0], device="cpu")
'''

EXIT_EARLY = '''
raise SystemExit(1)  # broken on purpose: fails before Warp is imported
'''

BUDGET = '''version: 1
defaults:
  samples: 1
  timeout: 300
  device: cpu
  env:
    PYTHONDONTWRITEBYTECODE: "1"
commands:
  - name: app
    command: ["${WCP_PYTHON}", "app.py"]
    cwd: ..
    max_builds_per_module: 1
'''

BUDGET_PATH = os.path.join("perf", "compile_budget.yaml")
COMMITS = 8


def _git(root, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="History Test", GIT_AUTHOR_EMAIL="history@example.invalid",
               GIT_COMMITTER_NAME="History Test", GIT_COMMITTER_EMAIL="history@example.invalid")
    return subprocess.run(["git", "-C", root, *args], check=True, capture_output=True, text=True,
                          env=env).stdout.strip()


def _write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


# The constant in the kernel at each commit: an edit of kernel code at commits 2, 4 and 6.
KERNEL_EDITS = (2, 4, 6)
REBUILD_COMMIT = 5


def kernel_constant(commit):
    return "{:.1f}".format(sum(1 for edit in KERNEL_EDITS if edit <= commit))


def app_source(commit):
    """app.py as it stands at commit `commit` (1-based)."""
    text = APP_HEAD
    if commit == 3:
        text += EXIT_EARLY
    text += APP_BODY.replace("BIAS", kernel_constant(commit))
    if commit >= REBUILD_COMMIT:
        text += LATE_KERNEL
    if commit >= 7:
        text += '\nprint("done")\n'
    return text


def make_history_repo(root):
    """Creates the repository in `root` (an empty or missing folder); returns the eight commit
    ids, oldest first."""
    os.makedirs(root, exist_ok=True)
    _git(root, "init", "-q", "-b", "main")
    shas = []
    for commit in range(1, COMMITS + 1):
        _write(root, "app.py", app_source(commit))
        if commit == 1:
            _write(root, BUDGET_PATH, BUDGET)
        if commit == 8:
            _write(root, "README.md", f"A Warp app, revision {commit}.\n")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", f"commit {commit}")
        shas.append(_git(root, "rev-parse", "HEAD"))
    return shas


if __name__ == "__main__":
    import sys

    for index, sha in enumerate(make_history_repo(sys.argv[1]), start=1):
        print(index, sha)
