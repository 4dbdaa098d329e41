#!/usr/bin/env python3
"""The first photo a fresh process reads, against cv2.imdecode of that file at full size.

    .venv/bin/python -m tools.bench.first_read PHOTO [PHOTO ...]

Run from the repository root. For each photo, two fresh processes on one core, each
timing cv2.imdecode of the file at full size and then one reading of it:
- "taken": `from vision import read_hand` before the timing, as the package's contract
  says (taking read_hand readies the pipeline: its networks loaded and run once, OpenCV's
  colour tables built);
- "first use": `import vision` before the timing, and `vision.read_hand(data)` timed, so
  that its readying is counted in the reading (as a web server's first photo pays it).
Then the same photo read again in the "taken" process, as the benchmark's steady state.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import json, os, sys, time
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
import cv2, numpy as np
cv2.setNumThreads(1)
import vision
if sys.argv[2] == "taken":
    from vision import read_hand
data = open(sys.argv[1], "rb").read()
t0 = time.perf_counter(); cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR); t1 = time.perf_counter()
vision.read_hand(data); t2 = time.perf_counter()
vision.read_hand(data); t3 = time.perf_counter()
print(json.dumps({"decode": t1 - t0, "first": t2 - t1, "again": t3 - t2}))
"""


def measure(photo: str, how: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, photo, how], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def main() -> int:
    photos = sys.argv[1:]
    if not photos or photos[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    rows = {"taken": [], "first use": [], "again": []}
    for photo in photos:
        taken, first = measure(photo, "taken"), measure(photo, "first")
        r = {"taken": taken["first"] / taken["decode"], "first use": first["first"] / first["decode"],
             "again": taken["again"] / taken["decode"]}
        for k, v in r.items():
            rows[k].append(v)
        print(f"{Path(photo).name}: decode {taken['decode'] * 1000:.0f} ms; first read {taken['first'] * 1000:.0f} ms "
              f"taken ({r['taken']:.2f}), {first['first'] * 1000:.0f} ms at first use ({r['first use']:.2f}); "
              f"again {taken['again'] * 1000:.0f} ms ({r['again']:.2f})", flush=True)
    for k, v in rows.items():
        print(f"{k:>9}: read / decode median {statistics.median(v):.2f}, worst {max(v):.2f}, "
              f"under 2.5: {sum(x < 2.5 for x in v)} of {len(v)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
