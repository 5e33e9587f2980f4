"""A tiny Warp app: every kernel is defined before the first launch, in one module, so it
compiles exactly one module identity cold and nothing warm."""

import argparse

import warp as wp

parser = argparse.ArgumentParser()
parser.add_argument("--steps", type=int, default=4)
parser.add_argument("--device", default="cpu")
args = parser.parse_args()

wp.init()


@wp.kernel
def integrate(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3), dt: float):
    i = wp.tid()
    v[i] = v[i] + wp.vec3(0.0, -9.8, 0.0) * dt
    x[i] = x[i] + v[i] * dt


@wp.kernel
def floor_contact(x: wp.array(dtype=wp.vec3), v: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    if x[i][1] < 0.0:
        x[i] = wp.vec3(x[i][0], 0.0, x[i][2])
        v[i] = wp.vec3(v[i][0], 0.0, v[i][2])


n = 128
x = wp.full(n, wp.vec3(0.0, 1.0, 0.0), dtype=wp.vec3, device=args.device)
v = wp.zeros(n, dtype=wp.vec3, device=args.device)
for _ in range(args.steps):
    wp.launch(integrate, dim=n, inputs=[x, v, 0.1], device=args.device)
    wp.launch(floor_contact, dim=n, inputs=[x, v], device=args.device)
wp.synchronize_device(args.device)
print("height", float(x.numpy()[0][1]))
