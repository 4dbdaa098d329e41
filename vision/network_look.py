"""The tile network's look (tile_net.py) at the boxes the classical looks read, put
together with the tiles those looks kept.

Every box a look read is a place where something looked like a tile. The network reads
each again; where it sees a tile near the box, the box is moved onto it (twice: a box
half a tile off first lands near the tile, then on it) and read there. Its tiles and the
classical ones are then put together: where both read a tile they agree (a more sure
tile) or disagree (the surer reading, marked for checking); a tile only the network saw
is kept when it is fairly sure of it, one only the classical looks saw when they read it
fairly cleanly or the network sees a tile in its box. A network tile running off the
photo is marked for checking.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import tile_net
from .geometry import outline_overlap

#: A box is followed (moved onto its tile) when the network gives it this chance of a
#: tile near it...
FOLLOW = 0.5
#: ...this many times...
MOVES = 2
#: ...and the network's tile is taken when it gives it this chance at the end.
TILE = 0.5
#: Two outlines overlapping by this share of the smaller are on the same tile.
SAME_TILE = 0.3
#: A tile only the network read is kept from this confidence (the chance of a tile
#: times those of its two halves' readings).
NETWORK_ALONE = 0.6
#: ...or this one for a tile of no pip or one, which has little to show that it is a
#: tile at all (a smear, a card's corner, a tile's side read as a [0|0]).
BLANK_ALONE = 0.95
#: A tile only the classical looks read is kept from this confidence, or when the
#: network gives its box a chance of TILE.
CLASSICAL_ALONE = 0.5
#: Where the two read one tile differently, the surer reading is kept and marked for
#: checking: its confidence is at most this.
DISPUTED = 0.6


@dataclass
class Found:
    """A tile read: its outline on the photo the looks were made on (TileBox.corners
    order), the pips of the half at its (-u,-n) end and of the other, its confidence."""

    corners: np.ndarray
    top: int
    bottom: int
    confidence: float

    @property
    def tile(self) -> tuple[int, int]:
        return max(self.top, self.bottom), min(self.top, self.bottom)


def put_together(detail: np.ndarray, classical: list[Found], proposals: list[np.ndarray]) -> list[Found]:
    """The tiles of the photo `detail`: `classical` (the classical looks' tiles) put
    together with the network's reading of them and of `proposals` (the outlines of
    every box the looks read)."""
    boxes = _distinct([f.corners for f in classical] + list(proposals), keep=len(classical))
    answers = _read(detail, boxes)
    on_classical = answers[:len(classical)]
    following = [(b, a) for b, a in zip(boxes, answers) if a.near >= FOLLOW]
    for _ in range(MOVES):
        moved = [tile_net.moved(b, a.place) for b, a in following]
        following = list(zip(moved, _read(detail, moved)))
    h, w = detail.shape[:2]
    network = _strongest([Found(b, a.top, a.bottom, a.sure if _inside(b, w, h) else min(a.sure, DISPUTED))
                          for b, a in following if a.tile >= TILE])
    out: list[Found] = []
    paired: set[int] = set()
    for f in network:
        mine = [i for i, c in enumerate(classical) if _overlap(c.corners, f.corners) >= SAME_TILE]
        if not mine:
            if f.confidence >= (NETWORK_ALONE if f.top + f.bottom > 1 else BLANK_ALONE):
                out.append(f)
            continue
        paired.update(mine)
        c = max((classical[i] for i in mine), key=lambda c: c.confidence)
        surer = f if f.confidence >= c.confidence else c
        if c.tile == f.tile:
            sure = 1.0 - (1.0 - f.confidence) * (1.0 - c.confidence)  # two readers agree
            out.append(Found(surer.corners, surer.top, surer.bottom, round(sure, 3)))
        else:
            out.append(Found(surer.corners, surer.top, surer.bottom, min(surer.confidence, DISPUTED)))
    for i, c in enumerate(classical):
        if i not in paired and (c.confidence >= CLASSICAL_ALONE or on_classical[i].tile >= TILE):
            out.append(c)
    return out


#: A tile's outline may run off the photo by this share of its width; farther, the frame
#: may cut some of its pips off (the crop's border is the frame's edge repeated), and
#: the network's reading is marked for checking.
OFF_PHOTO = 0.15


def _inside(corners: np.ndarray, w: int, h: int) -> bool:
    m = OFF_PHOTO * tile_net.frame(corners)[3]
    return bool((corners[:, 0] > -m).all() and (corners[:, 0] < w + m).all()
                and (corners[:, 1] > -m).all() and (corners[:, 1] < h + m).all())


def _read(detail: np.ndarray, boxes: list[np.ndarray]) -> list[tile_net.Answer]:
    return tile_net.read_crops(np.array([tile_net.crop(detail, b) for b in boxes]).reshape(
        -1, tile_net.IN_H, tile_net.IN_W, 3))


def _distinct(boxes: list[np.ndarray], keep: int) -> list[np.ndarray]:
    """`boxes` without those nearly the same as one before them (the looks read many
    boxes twice: at two sizes, two thresholds); the first `keep` are all kept."""
    out: list[np.ndarray] = []
    frames = []
    for k, b in enumerate(boxes):
        c, _, n, w, ln = tile_net.frame(b)
        if k >= keep and any(np.hypot(*(c - c2)) < 0.1 * w2 and abs(w / w2 - 1) < 0.1 and abs(ln / l2 - 1) < 0.1
                             and abs(float(np.dot(n, n2))) > 0.995 for c2, n2, w2, l2 in frames):
            continue
        out.append(b)
        frames.append((c, n, w, ln))
    return out


def _strongest(found: list[Found]) -> list[Found]:
    """The surest of the tiles read on each spot."""
    kept: list[Found] = []
    for f in sorted(found, key=lambda f: -f.confidence):
        if all(_overlap(f.corners, k.corners) < SAME_TILE for k in kept):
            kept.append(f)
    return kept


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    pa, pb = a.astype(np.float32), b.astype(np.float32)
    return outline_overlap(pa, pb, abs(cv2.contourArea(pa)), abs(cv2.contourArea(pb)))
