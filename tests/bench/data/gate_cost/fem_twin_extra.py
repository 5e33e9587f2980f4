"""The B twin's extra module (fem_twin_app.py): kernels compiled and never launched.

STEPS sets its size: each step of the constant loop is unrolled into the generated code, so
the module's compile work grows with it.
"""

import warp as wp

STEPS = 2


@wp.kernel
def twin_extra_smooth(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = a[i]
    v = wp.vec3(x, x * 0.5, x * 0.25)
    m = wp.mat33(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    for _k in range(STEPS):
        q = wp.quat_from_axis_angle(wp.normalize(v + wp.vec3(1.0, 0.0, 0.0)), x)
        v = wp.quat_rotate(q, v) * 0.5 + wp.cross(v, wp.vec3(0.0, 1.0, 0.0))
        m = m * wp.quat_to_matrix(q) + wp.outer(v, v) * 0.1
        v = wp.inverse(m + wp.diag(wp.vec3(2.0))) * v
        x = wp.sin(x) + wp.cos(wp.length(v))
    out[i] = v
