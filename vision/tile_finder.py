"""A small trained network that finds where the tiles of a photo lie, in one pass.

The classical looks (classical_look.py) find tiles by their dividers and bodies: a search over
hundreds of candidate boxes, slow on a busy cloth where every stripe is a candidate. The
finder sees the whole photo at once and answers, for every STRIDE x STRIDE cell, the
chance that a tile's centre lies there, and that tile's centre, width, length and axis.
It answers for tiles NARROWEST to WIDEST pixels wide on what it sees; the photo is shown
to it at LEVELS sizes, each a third of the one before, so that every tile is of that width
at one of them (the finest, the costliest, only when the tiles may be small: _big_tiles).
The tile network (tile_net.py) then reads the boxes it finds.

It was trained by tools/training/train_tile_finder.py on photos rendered by
tools/generators/harsh_photos.py and tools/generators/synthetic_photos.py, never on the
real development photos. Its weights (tile_finder.onnx) ship with the package and run in ONNX Runtime.
Photos of a Chicken Foot table are seen by a finder of the same shape trained on those
photos and rendered tables (tools/generators/table_photos.py) too (table_finder.onnx): it
finds a double crowded by its toes, and the squeezed tiles of a table seen from a seat,
that the hands' finder misses; on hands it reads worse than that one (its boxes fall
elsewhere than the searches made after it were set for), so each keeps its photos.
"""

from __future__ import annotations

import math
import threading
from pathlib import Path

import cv2
import numpy as np

from .tile_net import box_corners, frame, run

STRIDE = 8
NARROWEST, WIDEST = 16, 48
#: The longer sides the photo is seen at.
LEVELS = (1024, 1024 / 3, 1024 / 9, 1024 / 27)
#: The answers per cell: a tile's centre here (a logit), its offset from the cell's centre
#: (in cells, across and down), the logarithms of its width over 2 STRIDE and of its
#: length over its width, and cos and sin of twice its axis' angle.
OUTPUTS = 7
#: A cell answering this chance of a centre, and more than its eight neighbours, is a tile.
FOUND = 0.3
WEIGHTS = Path(__file__).with_name("tile_finder.onnx")
#: The finder for photos of a table (see above).
TABLE_WEIGHTS = Path(__file__).with_name("table_finder.onnx")


def prepared(image: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A BGR uint8 image (H, W, 3) as the finder takes it: (1, 3, H, W) floats about 0,
    the values OpenCV's blob making gives (bit for bit), written into `out` if given."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError("the finder takes a BGR image of bytes (H x W x 3)")
    shape = (1, 3, *image.shape[:2])
    x = np.empty(shape, np.float32) if out is None else out
    if x.shape != shape or x.dtype != np.float32 or not x.flags.c_contiguous:
        raise ValueError(f"the finder's input for that image is a contiguous float32 array {shape}")
    for c, plane in enumerate(cv2.split(image)):
        cv2.subtract(plane, 128.0, dst=x[0, c], dtype=cv2.CV_32F)
    return cv2.multiply(x, 1 / 64.0, dst=x)


def answers(image: np.ndarray, weights: Path = WEIGHTS) -> np.ndarray:
    """The answers of the finder in `weights` for a BGR image: (OUTPUTS, H / STRIDE, W /
    STRIDE). A big image's input is written into an array this thread keeps for its size
    (_kept)."""
    return run(weights, prepared(image, _kept(image.shape[:2])))[0]


#: The finder's inputs of this many bytes or more are written into arrays kept for the
#: next photo: a fresh one for the finest level (9 MB) cost 4 to 5 ms in a reading, most
#: of it the memory's first touch, and filling a kept one takes 0.6 ms; the coarser
#: levels' (1 MB and less) cost little either way.
KEPT_FROM = 4_000_000
#: Each thread keeps at most this many (the finest level of a photo held upright and of
#: one held sideways), the least recently used going first.
KEPT_BUFFERS = 2
_buffers = threading.local()


def _kept(shape: tuple[int, int]) -> np.ndarray | None:
    """The array this thread keeps for the finder's input of an image of `shape`, if
    that input is big enough to keep (KEPT_FROM); None otherwise."""
    if 3 * 4 * shape[0] * shape[1] < KEPT_FROM:
        return None
    kept = _buffers.__dict__.setdefault("by_shape", {})
    x = kept.pop(shape, None)
    if x is None:
        x = np.empty((1, 3, *shape), np.float32)
        if len(kept) >= KEPT_BUFFERS:
            kept.pop(next(iter(kept)))
    kept[shape] = x  # the most recently used last
    return x


def find(image: np.ndarray, coarse: list[list[tuple[np.ndarray, float]]] | None = None,
         finest: bool = True, weights: Path = WEIGHTS) -> list[tuple[np.ndarray, float]]:
    """The tiles the finder in `weights` sees on a BGR image: their boxes
    (tile_net.box_corners, on the image) with the chance that a tile's centre is there,
    surest first (`coarse`: what coarse_levels found on the image, where it was looked at
    so already; at the coarse levels alone unless `finest`)."""
    coarse = coarse_levels(image, weights) if coarse is None else coarse
    found = [box for level in coarse for box in level]
    if finest and not _big_tiles(coarse[0] + coarse[1], max(image.shape[:2])):
        found += _at_level(image, LEVELS[0], weights=weights)[0]
    return sorted(found, key=lambda fc: -fc[1])


def coarse_levels(image: np.ndarray, weights: Path = WEIGHTS) -> list[list[tuple[np.ndarray, float]]]:
    """The tiles the finder in `weights` sees on a BGR image at each level but the finest (LEVELS[1:],
    in that order): a quarter of its work, which finds no tile narrower than NARROWEST
    times the image's long side over LEVELS[1] (48 pixels on a photo 1000 long). Each
    level is shrunk from the one before rather than from the image: shrinking 1000 x 750
    pixels to 114 x 85 or 38 x 28 (by area) took 2.3 to 2.5 ms each, ten times the
    network's run there (measured on the development sets: the same tiles read)."""
    levels, shown = [], None
    for side in LEVELS[1:]:
        found, shown = _at_level(image, side, shown, weights=weights)
        levels.append(found)
    return levels


#: The finest level, three quarters of the finder's work, finds tiles NARROWEST to WIDEST
#: pixels wide at its size. It is not looked at when the coarser levels found SURE_BIG
#: tiles or more surely (BIG_CHANCE) and each of them is BIG times as wide as that or
#: more (seen at the finest level's size): a photo shows one set, and then only a tile
#: less than two thirds as wide as the narrowest of those is missed (by the finder: the
#: network still looks next to every tile found), which the perspective of a photo of a
#: hand seldom makes. At 2 the paper photos of the tests would look at it. Two, and not
#: at the coarsest level (where a tile is 400 pixels wide or more on a photo 1000 long):
#: the coarser levels have found a sheet of paper, a pencil, surely. They are counted at
#: the next level and at the one after (114): two tiles close up, found only there, would
#: otherwise cost the finest level too (17 ms and the network's reading of what it found
#: on their pips; a Roboflow export 2.7 times its decoding's time, against 2.3), and no
#: development photo's tiles are read otherwise for it (1,480 photos).
BIG_CHANCE = 0.6
SURE_BIG = 2
BIG = 1.5


def _big_tiles(found: list[tuple[np.ndarray, float]], long_side: int) -> bool:
    """Whether the tiles `found` at the two finest coarse levels of a photo `long_side`
    pixels long are too wide for the finest level to find any of the set's (see BIG)."""
    return too_wide_for_finest([frame(corners)[3] for corners, chance in found if chance >= BIG_CHANCE], long_side)


def too_wide_for_finest(widths: list[float], long_side: int) -> bool:
    """Whether tiles `widths` pixels wide on a photo `long_side` pixels long, SURE_BIG of
    them or more, are each BIG times as wide as the finest level finds, or more (seen at
    its size): then it finds none of the set's."""
    return len(widths) >= SURE_BIG and min(widths) * LEVELS[0] / long_side >= BIG * WIDEST


def _at_level(image: np.ndarray, side: float, finer: np.ndarray | None = None, weights: Path = WEIGHTS
              ) -> tuple[list[tuple[np.ndarray, float]], np.ndarray]:
    """The tiles the finder in `weights` sees on a BGR image shown to it `side` pixels long (shrunk
    from `finer`, the image as a finer level was shown it, if given), and the image as
    it was shown."""
    h, w = image.shape[:2]
    f = side / max(h, w)
    size = (max(STRIDE, round(w * f)), max(STRIDE, round(h * f)))
    seen = cv2.resize(image if finer is None else finer, size,
                      interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    # a side clamped to STRIDE (a long, thin photo at a small level) is stretched more
    back = np.array([w / STRIDE if size[0] == STRIDE else 1 / f, h / STRIDE if size[1] == STRIDE else 1 / f])
    return [(corners * back, chance) for corners, chance in _peaks(answers(seen, weights))], seen


def _peaks(out: np.ndarray) -> list[tuple[np.ndarray, float]]:
    """The boxes at the cells of `out` (the finder's answers) that are tiles' centres."""
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    peaks = []
    for i, j in zip(*np.nonzero((heat >= FOUND) & (heat >= top))):
        dx, dy, lw, ll, c2, s2 = (float(v) for v in out[1:, i, j])
        centre = np.array([(j + 0.5 + dx) * STRIDE, (i + 0.5 + dy) * STRIDE])
        width = 2 * STRIDE * math.exp(lw)
        angle = 0.5 * math.atan2(s2, c2)
        axis = np.array([math.cos(angle), math.sin(angle)])
        peaks.append((box_corners(centre, axis, width, width * math.exp(ll)), float(heat[i, j])))
    return peaks
