"""Programs with several processes: os._exit, fork, multiprocessing pools (spawn and fork)
and the SIGTERM that Pool.terminate() sends. Each process writes its own event file."""
import time

import pytest

from conftest import launched, last_launches, needs_warp, of_type, run_script

pytestmark = needs_warp

KERNELS = """
import os, sys, time
import warp as wp


@wp.kernel
def fill(x: wp.array(dtype=float)):
    x[wp.tid()] = 1.0


@wp.kernel
def scale(x: wp.array(dtype=float), s: float):
    x[wp.tid()] = x[wp.tid()] * s
"""


def keys(records):
    return [s["kernel"] for s in launched(records)]


def test_os_exit_writes_the_final_record(tmp_path, warp_cache):
    body = KERNELS + """
x = wp.zeros(4, dtype=float, device="cpu")
for _ in range(10):
    wp.launch(fill, dim=4, inputs=[x])
sys.stdout.flush()
os._exit(3)
"""
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == 3
    snapshot = last_launches(run.main)
    assert snapshot["final"] and snapshot["total"] == 10
    assert of_type(run.main, "exit")[0]["how"] == "os._exit"


def test_a_killed_process_keeps_its_last_periodic_snapshot(tmp_path, warp_cache):
    # SIGKILL runs no exit hook: what reaches the report is the snapshot written while the
    # program ran (every 0.5 s while launches change, and at each module load).
    body = KERNELS + """
import signal, time
x = wp.zeros(4, dtype=float, device="cpu")
for _ in range(200):
    wp.launch(fill, dim=4, inputs=[x])
deadline = time.monotonic() + 1.5
while time.monotonic() < deadline:
    wp.launch(scale, dim=4, inputs=[x, 1.0])
    time.sleep(0.01)
sys.stdout.flush()
os.kill(os.getpid(), signal.SIGKILL)
"""
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == -9
    snapshot = last_launches(run.main)
    assert snapshot is not None and not snapshot["final"]
    kernels = [s["kernel"] for s in launched(run.main)]
    assert kernels[:200] == ["fill"] * 200  # everything up to the last snapshot, in order
    assert 0 < kernels.count("scale") <= len(kernels) - 200
    assert of_type(run.main, "exit") == []


def test_fork_child_gets_its_own_file(tmp_path, warp_cache):
    body = KERNELS + """
x = wp.zeros(4, dtype=float, device="cpu")
wp.launch(fill, dim=4, inputs=[x])
pid = os.fork()
if pid == 0:
    for _ in range(3):
        wp.launch(scale, dim=4, inputs=[x, 2.0])
    os._exit(0)
_, status = os.waitpid(pid, 0)
wp.launch(fill, dim=4, inputs=[x])
print("CHILD", pid, status)
"""
    run = run_script(tmp_path, body, cache=warp_cache)
    assert run.proc.returncode == 0, run.proc.stderr
    parent = run.main
    child_pid = int(run.proc.stdout.split("CHILD ")[1].split()[0])
    child = run.events[child_pid]
    assert child[0]["type"] == "process" and child[0]["forked_from"] == parent[0]["pid"]
    assert child[0]["mp_child"] is False
    assert of_type(child, "attach")
    assert keys(child) == ["scale"] * 3
    assert of_type(child, "exit")[0]["how"] == "os._exit"
    assert keys(parent) == ["fill", "fill"]


POOL = KERNELS + """
import multiprocessing as mp


def work(i):
    x = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(fill, dim=4, inputs=[x])
    return float(x.numpy()[0])


if __name__ == "__main__":
    context = mp.get_context(sys.argv[1])
    x = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(fill, dim=4, inputs=[x])
    with context.Pool(2) as pool:
        print("RESULTS", pool.map(work, range(6), chunksize=1))
"""


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_pool_workers_are_recorded(tmp_path, warp_cache, method):
    bare = run_script(tmp_path, POOL, probe=False, cache=warp_cache, args=[method])
    run = run_script(tmp_path, POOL, cache=warp_cache, args=[method])
    assert run.proc.returncode == bare.proc.returncode == 0, run.proc.stderr
    assert "RESULTS [1.0, 1.0, 1.0, 1.0, 1.0, 1.0]" in run.proc.stdout
    main = run.main
    workers = [records for pid, records in run.events.items() if records is not main]
    # A spawn worker that got no task may be terminated before it even imported Warp.
    assert 1 <= len(workers) <= 2
    total = 0
    for records in workers:
        process = records[0]
        assert process["mp_child"] is True
        assert "multiprocessing idle snapshots" in of_type(records, "attach")[-1]["hooks"]
        if method == "fork":
            assert process["forked_from"] == main[0]["pid"]
        # Pool.terminate() kills idle workers with SIGTERM: their record is the snapshot they
        # wrote when they went back to wait for a task (final only if they exited themselves).
        for exit_ in of_type(records, "exit"):
            assert exit_["how"] in ("os._exit", "atexit")
        snapshot = last_launches(records)
        if snapshot is not None:
            total += snapshot["total"]
    assert total == 6
    assert keys(main) == ["fill"]


SLEEPER = KERNELS + """
import multiprocessing as mp


def sleep_forever():
    x = wp.zeros(4, dtype=float, device="cpu")
    wp.launch(fill, dim=4, inputs=[x])
    open("launched", "w").close()  # the parent terminates it only after this
    time.sleep(600)


if __name__ == "__main__":
    if os.path.exists("launched"):
        os.remove("launched")
    p = mp.get_context(sys.argv[1]).Process(target=sleep_forever)
    p.start()
    # Until the child launched (a loaded runner can take seconds to import and load), then the
    # given pause: a fixed sleep alone let a slow child be terminated before its launch.
    deadline = time.monotonic() + 120
    while not os.path.exists("launched") and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(float(sys.argv[2]))
    start = time.monotonic()
    p.terminate()
    p.join(30)
    print("EXIT", p.exitcode, "JOIN", round(time.monotonic() - start, 3))
"""


@pytest.mark.timing
@pytest.mark.parametrize("method", ["spawn", "fork"])
@pytest.mark.parametrize("handler", [False, True], ids=["default", "WCP_MP_SIGTERM"])
def test_sigterm_exit_status_and_timing_unchanged(tmp_path, warp_cache, method, handler):
    # The child is terminated a moment after it launched (it says so in a file).
    wait = "1"
    env = {"OPENBLAS_NUM_THREADS": "1"}  # the opt-in handler is only safe in one-thread children
    if handler:
        env["WCP_MP_SIGTERM"] = "1"
    bare = run_script(tmp_path, SLEEPER, probe=False, cache=warp_cache, args=[method, wait], env=env)
    start = time.monotonic()
    run = run_script(tmp_path, SLEEPER, cache=warp_cache, args=[method, wait], env=env)
    assert time.monotonic() - start < 120
    for result in (bare, run):
        assert result.proc.returncode == 0, result.proc.stderr
        assert "EXIT -15 " in result.proc.stdout
    join_bare = float(bare.proc.stdout.split("JOIN ")[1])
    join_probe = float(run.proc.stdout.split("JOIN ")[1])
    assert join_probe < join_bare + 1.0
    child = [records for records in run.events.values() if records is not run.main]
    assert len(child) == 1
    assert last_launches(child[0])["total"] == 1
    if handler:
        assert of_type(child[0], "exit")[0]["how"] == "SIGTERM" and last_launches(child[0])["final"]
    else:
        assert of_type(child[0], "exit") == []  # killed: its last snapshot is its record
