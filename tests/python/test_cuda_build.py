"""The exit-time CUDA build (`measure --cuda-arch`, cuda_build.py) on real Warp, without a GPU:
what it compiles (each loaded identity, at the block_dim a CUDA launch would use), what it
records, and that the program's output, exit status and Warp's own load timer line are the same
as without it. On a Warp without an architecture compile it says so instead of building."""
import os
import re

import sys

from conftest import PROBE_DIR, needs_warp, of_type, run_script

pytestmark = needs_warp

PROGRAM = """
import sys
import warp as wp


@wp.kernel
def heavy(a: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i]
    for _k in range(4):
        x = wp.sin(x) * wp.cos(x) + wp.sqrt(wp.abs(x) + 1.0)
    a[i] = x


@wp.kernel
def light(a: wp.array(dtype=float)):
    a[wp.tid()] = 1.0


a = wp.zeros(8, dtype=float, device="cpu")
wp.launch(light, dim=8, inputs=[a])
wp.launch(heavy, dim=8, inputs=[a])
print("sum", float(a.numpy().sum()))
sys.stderr.write("done\\n")
sys.exit(3)
"""


def strip_times(text):
    return re.sub(r"warp-cache-[0-9]+", "warp-cache-N", re.sub(r"took [0-9.]+ ms", "took N ms", text))


def test_archs_are_read_from_the_variable():
    sys.path.insert(0, PROBE_DIR)
    try:
        from _wcp_probe.cuda_build import parse_archs
    finally:
        sys.path.remove(PROBE_DIR)
    assert parse_archs("86,sm_90, 86 ,x,0,") == [86, 90]
    assert parse_archs("") == []
    assert parse_archs(None) == []


def test_each_loaded_identity_is_compiled_for_each_arch_after_the_program(tmp_path, warp_cache):
    bare = run_script(tmp_path, PROGRAM, probe=False)
    run = run_script(tmp_path, PROGRAM, env={"WCP_CUDA_ARCHS": "86,sm_89"})
    assert run.proc.returncode == bare.proc.returncode == 3
    # Warp's load line carries its own timer: everything but the milliseconds is the same.
    assert strip_times(run.proc.stdout) == strip_times(bare.proc.stdout)
    assert run.proc.stderr == bare.proc.stderr
    builds = of_type(run.main, "cuda_build")
    done = of_type(run.main, "cuda_build_done")
    if os.environ.get("WCP_EXPECT_WARP") == "old":
        # Warp 1.9 has no compile of resolved options for an arch: said, never attempted.
        assert len(done) == 1 and "Warp 1.12+" in done[0]["unavailable"] and not builds, done
        return
    assert [record["arch"] for record in builds] == [86, 89]
    for record in builds:
        assert record["module"] == "__main__" and "error" not in record, record
        # A CPU launch loads at block_dim 1; a CUDA launch would use the module's default.
        assert record["block_dim"] == 256
        assert record["output_kind"] in ("cubin", "ptx")
        assert record["output_bytes"] > 0 and os.path.exists(record["trace"])
        assert record["cpu_s"] > 0 and record["wall_s"] > 0
        assert sorted(record["kernels"].values()) == ["heavy", "light"]
        # Built in the tool's event folder, never in the program's kernel cache.
        assert record["output"].startswith(run.event_dir)
    assert done[-1]["modules"] == 2 and done[-1]["workers"] >= 1
    # The builds come before the exit record, which stays the process's last.
    kinds = [record["type"] for record in run.main]
    assert kinds.index("cuda_build_done") < kinds.index("exit")


def test_nothing_is_built_without_the_variable(tmp_path, warp_cache):
    run = run_script(tmp_path, PROGRAM)
    assert not of_type(run.main, "cuda_build") and not of_type(run.main, "cuda_build_done")


def test_a_module_that_fails_to_compile_keeps_its_error(tmp_path, warp_cache):
    # An arch NVRTC does not know fails in NVRTC; the program's exit status is untouched.
    run = run_script(tmp_path, PROGRAM, env={"WCP_CUDA_ARCHS": "11"})
    assert run.proc.returncode == 3
    builds = of_type(run.main, "cuda_build")
    if os.environ.get("WCP_EXPECT_WARP") == "old":
        return
    assert builds and all(record.get("error") for record in builds), builds
