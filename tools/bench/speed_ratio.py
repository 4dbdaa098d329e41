#!/usr/bin/env python3
"""The speed goal's ratio for any JPEGs: each read against cv2.imdecode of that file at
full size, in one process pinned to one core, best of three each.

    .venv/bin/python -m tools.bench.speed_ratio [-v] PHOTO [PHOTO ...]

Prints the median ratio, its 90th percentile, how many photos are under 2.5 and the
slowest read (with -v, a line per photo: ratio, read and decode in ms, tiles read). The
machine's noise moves a median by 0.1 or so from run to run: compare two trees by
running each twice, one after the other, each from its own root (the figures in
docs/vision.md are taken so).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

GOAL = 2.5


def as_a_phone_stores_it(bgr: np.ndarray, size: tuple[int, int], rng: np.random.Generator) -> bytes:
    """`bgr` enlarged to `size` (12 MP) with a little sensor-like noise, as JPEG of quality
    92: a phone's 12 MP JPEG weighs 2.5 to 5 MB; a smooth render enlarged without noise
    weighs a fifth of that and decodes in half the time, which would make the ratio to
    its decode twice as hard as a real photo's."""
    big = cv2.resize(bgr, size, interpolation=cv2.INTER_CUBIC).astype(np.float32)
    big += rng.normal(0.0, 3.0, big.shape).astype(np.float32)
    return cv2.imencode(".jpg", np.clip(big, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()


def measure(path: str, read_hand) -> tuple[float, float, int]:
    """The best of three reads and of three full-size decodes of the file, in seconds,
    and the tiles read."""
    data = Path(path).read_bytes()
    buf = np.frombuffer(data, np.uint8)
    read_hand(data)  # its first reading warms the caches, as a server's would be
    decodes, reads = [], []
    for _ in range(3):
        t0 = time.perf_counter()
        cv2.imdecode(buf, cv2.IMREAD_COLOR)
        t1 = time.perf_counter()
        hand = read_hand(data)
        t2 = time.perf_counter()
        decodes.append(t1 - t0)
        reads.append(t2 - t1)
    return min(reads), min(decodes), len(hand.tiles)


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    photos = [a for a in argv if a != "-v"]
    if not photos or photos[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)
    from vision import read_hand

    ratios, slowest = [], 0.0
    for path in photos:
        read, decode, tiles = measure(path, read_hand)
        ratios.append(read / decode)
        slowest = max(slowest, read)
        if verbose:
            print(f"{Path(path).name}: {read / decode:.2f}  read {read * 1000:.0f} ms  "
                  f"decode {decode * 1000:.0f} ms  {tiles} tiles")
    q = sorted(ratios)
    print(f"{len(ratios)} photos: median {statistics.median(ratios):.2f}, "
          f"90th percentile {q[int(0.9 * (len(q) - 1))]:.2f}, under {GOAL} {sum(r < GOAL for r in ratios)}, "
          f"worst {q[-1]:.2f}, slowest read {slowest:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
