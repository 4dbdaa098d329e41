"""How long the photo counter takes a photo, one core (run by hand from the repository
root, not by pytest).

    .venv/bin/python -m tools.bench.read_times '/tmp/h[1-4]/dom_*'

Reads every file the patterns match once, in order, and prints the median, the 90th
percentile and the slowest read, how many took over a second, and the six slowest. The
vision package is the one of the tree it is run from, so running it from the root of a
`git worktree` of another commit times that commit: run two trees back to back, the
machine's other work moves the times.
"""

from __future__ import annotations

import glob
import sys
import time
from pathlib import Path

import cv2
import numpy as np

import vision

ROOT = Path(vision.__file__).resolve().parents[1]


def main(patterns: list[str]) -> int:
    if not patterns or patterns[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    cv2.setNumThreads(1)
    rows = []
    for path in sorted(p for pattern in patterns for p in glob.glob(pattern)):
        data = Path(path).read_bytes()
        start = time.perf_counter()
        hand = vision.read_hand(data)
        rows.append((time.perf_counter() - start, path, hand.width * hand.height / 1e6))
    if not rows:
        print("no photo matches", " ".join(patterns))
        return 1
    rows.sort()
    seconds = np.array([r[0] for r in rows])
    print(f"{ROOT}: {len(rows)} photos: median {np.median(seconds):.2f} s, 90th {np.percentile(seconds, 90):.2f} s, "
          f"max {seconds.max():.2f} s, over 1 s: {(seconds > 1).sum()}")
    for took, path, megapixels in rows[-6:]:
        print(f"  {took:.2f} s  {megapixels:.1f} MP  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
