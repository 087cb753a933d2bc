#!/usr/bin/env python3
"""Time SciPy's linear_sum_assignment on a cost matrix written by
`semibench gen lap` (CSV, a row per line), the reference of issue 4's cpu/jv
target. Prints one JSON line per run, as `semibench solve lap --ms` does:
{"impl": "scipy", "cost": ..., "ms": ...}; ms is the solve alone.

usage: scipy_lap.py FILE.csv [REPS]
"""
import json
import sys
import time

import numpy as np
from scipy.optimize import linear_sum_assignment


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path, reps = sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 1
    with open(path) as f:
        text = f.read()
    rows = text.count("\n")
    c = np.array(text.replace("\n", ",").rstrip(",").split(","), dtype=np.int64)
    if rows == 0 or c.size % rows:
        sys.exit(f"{path}: not a rectangular CSV matrix")
    c = c.reshape(rows, c.size // rows)
    for _ in range(reps):
        t0 = time.perf_counter()
        r, col = linear_sum_assignment(c)
        ms = (time.perf_counter() - t0) * 1e3
        print(json.dumps({"impl": "scipy " + __import__("scipy").__version__, "cost": int(c[r, col].sum()), "ms": round(ms, 3)}))


if __name__ == "__main__":
    main()
