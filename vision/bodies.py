"""Tile boxes found by the tiles' bodies rather than their dividers.

The divider search (dividers.py) finds a tile by the line across its middle, and misses
it when that line cannot be seen: a fine engraved divider blurred away, glare over it, a
set whose divider is the face's own colour. Such a tile still shows as a rectangle twice
as long as wide, brighter (ivory, white) or darker (black) than the table all round. Cut
the lightness at a series of levels: at some level a tile that stands apart is a blob of
its own, and the blobs that fill their smallest enclosing rectangle and are about 2:1
become boxes. Touching tiles make one blob, which is not 2:1 and is left to the dividers.
"""

from __future__ import annotations

import cv2
import numpy as np

from .dividers import Bar
from .geometry import TileBox, overlap

#: Lightness levels (8-bit L) the photo is cut at, both ways (brighter and darker blobs).
LEVELS = range(40, 240, 12)
#: Blob sides (working pixels): the narrowest tile looked for, and the length / width range.
MIN_WIDTH = 10
MIN_RATIO, MAX_RATIO = 1.6, 2.5
#: A tile's blob covers at least this share of its enclosing rectangle (its pips are holes
#: inside the blob and do not count against it; rounded corners and blur do).
MIN_SOLIDITY = 0.85
#: Blobs of two cuts overlapping by this much (of the smaller) are one blob...
SAME_BLOB = 0.5
#: ...and its cuts filling their rectangle within this of the best are as good.
ALIKE = 0.04
#: The divider supposed across a body box spans this share of its width (the reading
#: looks for the real one; the box only needs a bar to be built around).
BAR_SHARE = 0.6
#: Edge evidence given to a body box: a clear blob outline, but no divider found with it.
BODY_EDGE = 3.0


def find_bodies(work: np.ndarray) -> list[TileBox]:
    """Boxes of the tile-like blobs of `work` (BGR at the working size), one per blob:
    where cuts at several levels give overlapping blobs, the one that fills its rectangle
    best."""
    L = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2LAB)[:, :, 0], (0, 0), 1.0)
    h, w = L.shape
    largest = 0.25 * h * w
    found: list[tuple[float, TileBox]] = []
    for level in LEVELS:
        for kind in (cv2.THRESH_BINARY, cv2.THRESH_BINARY_INV):
            mask = cv2.threshold(L, level, 1, kind)[1]
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            for contour in contours:
                if len(contour) < 4:
                    continue
                _, _, bw, bh = cv2.boundingRect(contour)
                if max(bw, bh) < MIN_RATIO * MIN_WIDTH or bw * bh > 4 * largest:
                    continue
                body = _body(contour, largest)
                if body is not None:
                    found.append(body)
    found.sort(key=lambda sb: -sb[0])
    kept: list[TileBox] = []
    for solidity, box in found:
        if all(overlap(box, k) < SAME_BLOB for k in kept):
            kept.append(_middle_cut(box, solidity, found))
    return kept


def _middle_cut(best: TileBox, solidity: float, found: list[tuple[float, TileBox]]) -> TileBox:
    """Of the cuts of one blob that fill their rectangle about as well as the best, the
    one of median size: the cuts nearest the table's lightness take in the blur of the
    tile's outline, the farthest ones lose its bevel, the middle ones follow its edge."""
    alike = sorted((b for q, b in found if q >= solidity - ALIKE and overlap(best, b) >= SAME_BLOB),
                   key=lambda b: b.width * b.length)
    return alike[len(alike) // 2]


def _body(contour: np.ndarray, largest: float) -> tuple[float, TileBox] | None:
    """(solidity, box) of a tile-like blob outline, or None."""
    area = cv2.contourArea(contour)
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    width, length = min(rw, rh), max(rw, rh)
    if width < MIN_WIDTH or not MIN_RATIO <= length / width <= MAX_RATIO or area > largest:
        return None
    solidity = area / (rw * rh)
    if solidity < MIN_SOLIDITY:
        return None
    # the unit vector across the tile (along its divider): along the rectangle's short side
    a = np.deg2rad(angle)
    ux, uy = (float(np.cos(a)), float(np.sin(a))) if rw <= rh else (float(-np.sin(a)), float(np.cos(a)))
    bar = Bar(cx, cy, ux, uy, BAR_SHARE * width, max(1.5, 0.05 * width), 0, 1.0)
    box = TileBox(cx, cy, ux, uy, width, length, bar, edge=BODY_EDGE, ends=1.0, body=True)
    return solidity, box

