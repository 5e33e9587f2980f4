"""The B twin's extra module (fem_twin_app.py): kernels compiled and never launched.

STEPS sets its size: each step of the constant loop is unrolled into the generated code, so
the module's compile work grows with it.
"""

import warp as wp

STEPS = 8


@wp.kernel
def twin_extra_relax(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = a[i]
    v = wp.vec3(x, 1.0, 0.0)
    m = wp.identity(n=3, dtype=wp.float32)
    for _k in range(STEPS):
        v = m * v + wp.vec3(wp.sin(x), wp.cos(x), wp.sqrt(wp.abs(x)))
        m = m * 0.5 + wp.outer(v, v) * 0.01
        x = wp.length(v) * 0.1
    out[i] = v
