import warp as wp
wp.config.quiet = True

@wp.kernel
def heavy(a: wp.array(dtype=wp.float32), out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    x = a[i]
    v = wp.vec3(x, x * 0.5, x * 0.25)
    m = wp.mat33(1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
    for _k in range(8):
        q = wp.quat_from_axis_angle(wp.normalize(v + wp.vec3(1.0, 0.0, 0.0)), x)
        v = wp.quat_rotate(q, v) * 0.5 + wp.cross(v, wp.vec3(0.0, 1.0, 0.0))
        m = m * wp.quat_to_matrix(q) + wp.outer(v, v) * 0.1
        v = wp.inverse(m + wp.diag(wp.vec3(2.0))) * v
        x = wp.sin(x) + wp.cos(wp.length(v))
    out[i] = v

@wp.kernel
def light(a: wp.array(dtype=wp.float32)):
    i = wp.tid()
    a[i] = a[i] * 2.0

if __name__ == "__main__":
    import sys
    m = wp.get_module(__name__)
    m.options["compile_time_trace"] = True
    print(wp.compile_aot_module(m, arch=86, module_dir=sys.argv[1], use_ptx=len(sys.argv) > 2))
