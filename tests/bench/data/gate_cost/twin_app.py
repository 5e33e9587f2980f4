"""A/B twin for tests/bench/gate_cost.py: the clean fixture (fixtures/clean/app.py), plus, when
WCP_GATE_TWIN=b, an extra kernel in the same module that is compiled but never launched.

Both twins launch exactly the same kernels with the same arguments (5 launches), so `compare`
keeps them the same workload; only the module's compile work differs. The extra kernel is
sized so that the B twin's cold module work is 10-15 % above the A twin's on the project's 2-core
machine (the bench prints the ratio it measured).
"""

import os

import warp as wp

DEVICE = os.environ.get("WCP_FIXTURE_DEVICE", "cpu")
TWIN = os.environ.get("WCP_GATE_TWIN", "a")

wp.config.enable_backward = False  # in time: before the first @wp.kernel

wp.init()

N = 64


@wp.kernel
def fill(a: wp.array(dtype=wp.float32)):
    i = wp.tid()
    a[i] = float(i)


@wp.kernel
def scale(a: wp.array(dtype=wp.float32), s: wp.float32):
    i = wp.tid()
    a[i] = a[i] * s


@wp.kernel
def reduce_sum(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    wp.atomic_add(out, 0, a[i])


if TWIN == "b":
    # Compiled with the module, never launched: more compile work, the same launches.
    @wp.kernel
    def unused_smooth(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.vec3)):
        i = wp.tid()
        x = a[i]
        v = wp.vec3(x, x * 0.5, x * 0.25)
        m = wp.mat33(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
        for _k in range(3):
            q = wp.quat_from_axis_angle(wp.normalize(v + wp.vec3(1.0, 0.0, 0.0)), x)
            v = wp.quat_rotate(q, v) * 0.5 + wp.cross(v, wp.vec3(0.0, 1.0, 0.0))
            m = m * wp.quat_to_matrix(q) + wp.outer(v, v) * 0.1
            v = wp.inverse(m + wp.diag(wp.vec3(2.0))) * v
            x = wp.sin(x) + wp.cos(wp.length(v))
        out[i] = v


a = wp.zeros(N, dtype=wp.float32, device=DEVICE)
out = wp.zeros(1, dtype=wp.float32, device=DEVICE)
wp.launch(fill, dim=N, inputs=[a], device=DEVICE)
for s in (2.0, 0.5, 3.0):
    wp.launch(scale, dim=N, inputs=[a, s], device=DEVICE)
wp.launch(reduce_sum, dim=N, inputs=[a, out], device=DEVICE)
wp.synchronize_device(DEVICE)

print("result", float(out.numpy().sum()))
