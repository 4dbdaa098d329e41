"""The quick look: the tile network reads the boxes the tile finder found.

The classical looks (reader.first_looks) find tiles by their dividers and bodies. On a
busy table (a checked, flowered or striped cloth, wood grain, a crowded scene) every
stripe is a divider candidate and every patch a body: hundreds of boxes are fitted and
measured. Small tiles on a big JPEG needed a closer look at a sharper decoding. Either
way a 12 MP photo took up to two seconds. The finder (tile_finder.py) sees where
the tiles lie in one pass, whatever the table; the network (network_look.put_together,
with no classical tile) reads them, moves its boxes onto them and looks next to them and
about loose pips and at the faces' colour (network_look). On such photos that reads as
many tiles right as the classical looks, in about half their time. On plain photos of
big tiles (white tiles on white paper, say) the classical looks read more of them, and
fast: there they stay (reader._read_tiles).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import network_look, tile_finder, tile_net
from .effort import Effort
from .loading import SHARPER_TILE, Photo, sharper_decoding, sharper_photo
from .network_look import Found

#: The longer side, in pixels, a photo's edges are counted at.
EDGES_SIDE = 800
#: A photo with at least this share of its pixels on an edge (Canny, 60 and 150) is busy.
#: On the development sets (240 harsh photos and the 60 real ones, each read both ways),
#: reading those from 0.03 up with the quick look would have read the same tiles right
#: and six more hands, in half the median time; from 0.01 and 0.02, it read white tiles
#: on white paper worse. A photo smaller than EDGES_SIDE is enlarged to it, which softens
#: its edges: the same table counts as less busy on a small photo (the threshold was set
#: on photos of 1 MP and more).
BUSY_EDGES = 0.03


def edge_share(photo: Photo) -> float:
    """The share of `photo`'s pixels on an edge, seen EDGES_SIDE pixels long (a
    smaller photo enlarged to that)."""
    grey = cv2.cvtColor(photo.bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    f = EDGES_SIDE / max(h, w)
    grey = cv2.resize(grey, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    return float(np.count_nonzero(cv2.Canny(grey, 60, 150))) / grey.size


def busy_photo(photo: Photo) -> bool:
    """Whether `photo` is busy enough for the quick look to read it (BUSY_EDGES)."""
    return edge_share(photo) >= BUSY_EDGES


@dataclass
class QuickLook:
    """The tiles read, on `detail` (the photo `photo` in BGR)."""

    found: list[Found]
    detail: np.ndarray
    photo: Photo


def quick_look(photo: Photo, detail: np.ndarray, data: bytes | None, effort: Effort) -> QuickLook:
    """The network's reading of the tiles the finder finds on `photo` (`detail` in BGR;
    decoded from `data`, and again at twice the size when its tiles are small there), its
    searches made while `effort` (the work done reading the photo so far) affords them. A
    tile with a blank half the network reads very surely is not marked for checking where
    the finder found a tile (network_look.put_together's `vouched`)."""
    boxes = [corners for corners, _ in tile_finder.find(detail)]
    widths = [tile_net.frame(b)[3] for b in boxes]
    half = None
    if widths and float(np.median(widths)) < SHARPER_TILE and sharper_decoding(photo, data):
        sharper = sharper_photo(photo, data)
        boxes = [b * (photo.scale / sharper.scale) for b in boxes]
        photo, detail, half = sharper, sharper.bgr, detail
    return QuickLook(network_look.put_together(detail, [], boxes, effort, vouched=boxes, half=half), detail, photo)
