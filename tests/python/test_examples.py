"""Cross-checks on Warp's own examples, each run with a fresh WARP_CACHE_PATH in a temp dir:
the probe's launch count equals an independent count of CPU kernel executions (Warp's
`invoke` / `invoke_cpu_blocks` entry in its context module, which the probe does not wrap),
and the record stays small."""
import json

import pytest

from conftest import last_launches, needs_warp, of_type, run_script

pytestmark = needs_warp

DRIVER = """
import atexit, json, runpy, sys
import warp
try:
    import warp._src.context as ctx
except ImportError:
    import warp.context as ctx

count = [0]


def counting(original):
    def entry(*args, **kwargs):
        count[0] += 1
        return original(*args, **kwargs)
    return entry


for name in ("invoke", "invoke_cpu_blocks"):
    if hasattr(ctx, name):
        setattr(ctx, name, counting(getattr(ctx, name)))
atexit.register(lambda: print("INVOKED", count[0], flush=True))
module = sys.argv[1]
sys.argv = [module] + sys.argv[2:]
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""

EXAMPLES = [
    ("warp.examples.fem.example_diffusion", ["--device", "cpu", "--headless", "--quiet", "--resolution", "10"]),
    # Both spellings: Warp 1.19 has --stage-path/--num-frames, 1.9 --stage_path/--num_frames.
    ("warp.examples.core.example_wave", ["--device", "cpu", "--stage-path", "None", "--stage_path", "None",
                                         "--num-frames", "10", "--num_frames", "10"]),
]


@pytest.mark.parametrize("module,args", EXAMPLES, ids=[m.rsplit(".", 1)[1] for m, _ in EXAMPLES])
def test_example_launch_count(tmp_path, module, args):
    run = run_script(tmp_path, DRIVER, args=[module, *args], name="driver.py", timeout=900)
    if run.proc.returncode != 0 and "unrecognized arguments" in run.proc.stderr:
        pytest.skip("this Warp's example takes other arguments: " + run.proc.stderr.strip().splitlines()[-1])
    assert run.proc.returncode == 0, run.proc.stderr[-3000:]
    invoked = int(run.proc.stdout.rsplit("INVOKED ", 1)[1].split()[0])
    snapshot = last_launches(run.main)
    assert snapshot["final"]
    assert snapshot["unrecorded"] == {}
    assert snapshot["total"] == invoked > 0
    assert len(json.dumps(snapshot["sequence"])) + len(json.dumps(snapshot["signatures"])) <= 20 * 1024
    assert of_type(run.main, "load")
    assert of_type(run.main, "exit")[0]["missing"] == []
    # The example is the program: a load's trigger is the example's line, never a frame of runpy
    # (which is all that is left when every frame under Warp's folder is skipped).
    triggers = [load["trigger"]["file"].replace("\\", "/") for load in of_type(run.main, "load") if load.get("trigger")]
    assert triggers and all("/warp/examples/" in file for file in triggers), triggers
