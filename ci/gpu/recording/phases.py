"""Where a CUDA process's first module load spends its time: prints phase times (ms).

The recording tests/data/cuda-recorded/bare/phases_probe_free.*.log was made with this program
(on cuda:0); the device comes from WCP_FIXTURE_DEVICE (default cuda:0)."""
import os
import time

t0 = time.perf_counter()
import warp as wp  # noqa: E402

DEVICE = os.environ.get("WCP_FIXTURE_DEVICE", "cuda:0")
wp.config.verbose = True
t1 = time.perf_counter()
wp.init()
t2 = time.perf_counter()
x = wp.zeros(16, dtype=wp.float32, device=DEVICE)
wp.synchronize_device(DEVICE)
t3 = time.perf_counter()


@wp.kernel
def k(a: wp.array(dtype=wp.float32)):
    a[wp.tid()] = 1.0


@wp.kernel(module="unique")
def k2(a: wp.array(dtype=wp.float32)):
    a[wp.tid()] = a[wp.tid()] + 2.0


m = wp.get_module(k.module.name)
t4 = time.perf_counter()
m.load(wp.get_device(DEVICE))
t5 = time.perf_counter()
wp.launch(k, dim=16, inputs=[x], device=DEVICE)
wp.synchronize_device(DEVICE)
t6 = time.perf_counter()
wp.get_module(k2.module.name).load(wp.get_device(DEVICE))
t7 = time.perf_counter()
line = (f"PHASES import={1e3*(t1-t0):.1f} init={1e3*(t2-t1):.1f} alloc={1e3*(t3-t2):.1f} "
        f"first_load={1e3*(t5-t4):.1f} first_launch={1e3*(t6-t5):.1f} second_module_load={1e3*(t7-t6):.1f}")
print(line)
