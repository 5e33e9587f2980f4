"""Recompute the A/A pair statistics from aa_2026-12-04.json (python3 pairs.py [field])."""
import itertools, json, os, statistics as st, sys

field = sys.argv[1] if len(sys.argv) > 1 else "cold_module_ms"
d = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "aa_2026-12-04.json")))


def pct(xs, q):
    xs = sorted(xs); k = (len(xs) - 1) * q; f = int(k)
    return xs[f] if f + 1 >= len(xs) else xs[f] + (xs[f + 1] - xs[f]) * (k - f)


rel = lambda a, b: abs(a - b) / min(a, b)
for p, conds in d["programs"].items():
    q, b = conds["quiet"][field], conds["busy"][field]
    for name, v, pr in (("quiet", q, [rel(x, y) for x, y in itertools.combinations(q, 2)]),
                        ("busy", b, [rel(x, y) for x, y in itertools.combinations(b, 2)]),
                        ("mixed", q + b, [rel(x, y) for x in q for y in b])):
        med = st.median(v); rmad = st.median(abs(x - med) for x in v) / med
        print(f"{p:22}{name:6} median {med:8.0f} rMAD {100*rmad:5.1f}% "
              f"max {100*max(pr):6.1f}% p95 {100*pct(pr,.95):6.1f}% p99 {100*pct(pr,.99):6.1f}%")
