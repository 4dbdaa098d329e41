"""The quick look: the tile network reads the boxes the tile finder found.

The classical looks (classical_look.first_looks) find tiles by their dividers and
bodies. On a busy table (a checked, flowered or striped cloth, wood grain, a crowded
scene) every stripe is a divider candidate and every patch a body: hundreds of boxes are
fitted and measured. Small tiles on a big JPEG need a closer look at a sharper decoding.
Either way the classical looks alone take up to two seconds on a 12 MP photo. The finder (tile_finder.py) sees where
the tiles lie in one pass, whatever the table; the network (network_look.put_together,
with no classical tile) reads them, moves its boxes onto them and looks next to them and
about loose pips and at the faces' colour (network_look). That reads as many tiles right
as the classical looks in less time, on every table. Where the tiles it read leave pips,
or the faces' colour, where no tile was read, the classical looks read the photo after
all (pipeline._read_tiles). On a light, plain table (white paper, laminate) the finder,
which has seen rendered photos only, misses some of the real photos' big ivory tiles
(those with a blank half above all), which the classical looks read well: there the
quick look reads no tile, and makes no search, where its searches may not make its
reading whole (network_look.may_complete), and the faces' colour left counts only in a
tile-sized rectangle (the side walls of thick tiles leave strips of it along a real photo's
tiles). The quick look still comes first there: the classical looks take about twice its
time on such a photo where it reads the photo whole.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import network_look, tile_finder, tile_net
from .effort import Effort
from .loading import SHARPER_TILE, Photo, sharper_decoding, sharper_photo
from .found import Found

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


#: A table is light when it is not busy and the middle of the photo's greys (its median,
#: 8-bit), most of which is the table's, is at least this...
LIGHT_TABLE = 130
#: ...and its lightest greys (the 98th percentile: the tiles' faces, or glare) are less
#: than this lighter: white or ivory tiles on white paper or a white table. 29 of the 60
#: real development photos are so (a median of 131 to 255, the lightest 0 to 65 above
#: it); the other 31 (wood, cloth, close-ups, black tiles) 11 to 121, and 74 to 202
#: above; ivory tiles on a dark felt about 40, and 150 above.
LIGHT_SPREAD = 70


@dataclass(frozen=True)
class Table:
    """What the table of a photo is like: busy (BUSY_EDGES), or light and plain (LIGHT_TABLE)."""

    busy: bool
    light: bool


def table(photo: Photo) -> Table:
    """The table of `photo`, seen EDGES_SIDE pixels long (a smaller photo enlarged to
    that: see BUSY_EDGES)."""
    grey = cv2.cvtColor(photo.bgr, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    f = EDGES_SIDE / max(h, w)
    grey = cv2.resize(grey, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    edges = float(np.count_nonzero(cv2.Canny(grey, 60, 150))) / grey.size
    below = np.cumsum(cv2.calcHist([grey], [0], None, [256], [0, 256]).ravel())
    median, lightest = np.searchsorted(below, [0.5 * grey.size, 0.98 * grey.size])
    busy = edges >= BUSY_EDGES
    return Table(busy=busy, light=bool(not busy and median >= LIGHT_TABLE and lightest - median < LIGHT_SPREAD))


class Sight:
    """What the tile finder sees on a photo (`detail`, in BGR), each part looked for once,
    when first asked for: by the quick look, and by the classical looks where they need
    the finder's boxes (pipeline.needs_finder). On a photo of a table (`on_a_table`),
    the finder trained on tables sees it (tile_finder.TABLE_WEIGHTS)."""

    def __init__(self, detail: np.ndarray, on_a_table: bool = False) -> None:
        self.detail = detail
        self.weights = tile_finder.TABLE_WEIGHTS if on_a_table else tile_finder.WEIGHTS
        # kept here, not by functools.cached_property: on Python 3.11 that holds one lock
        # for every instance, and the web server's threads would find tiles one at a time
        self._coarse: list[list[tuple[np.ndarray, float]]] | None = None
        self._boxes: list[np.ndarray] | None = None

    @property
    def coarse(self) -> list[list[tuple[np.ndarray, float]]]:
        """The tiles found at the finder's coarse levels (tile_finder.coarse_levels)."""
        if self._coarse is None:
            self._coarse = tile_finder.coarse_levels(self.detail, self.weights)
        return self._coarse

    @property
    def boxes(self) -> list[np.ndarray]:
        """The boxes of every tile the finder finds (tile_finder.find)."""
        if self._boxes is None:
            self._boxes = [corners for corners, _ in tile_finder.find(self.detail, self.coarse, weights=self.weights)]
        return self._boxes

    def boxes_of_tiles(self, widths: list[float]) -> list[np.ndarray]:
        """The finder's boxes on a photo where tiles `widths` pixels wide were measured:
        those of its coarse levels alone where SURE_BIG of them or more were, each too
        wide for its finest level to find a tile of the set
        (tile_finder.too_wide_for_finest), unless that was looked at already. On a real
        photo of five big tiles on white paper, taken at an angle, the finest level cost
        17 ms, and the network's reading of what it found on their pips more."""
        if self._boxes is not None or not tile_finder.too_wide_for_finest(widths, max(self.detail.shape[:2])):
            return self.boxes
        return [corners for corners, _ in tile_finder.find(self.detail, self.coarse, finest=False,
                                                           weights=self.weights)]


def small_boxes(boxes: list[np.ndarray]) -> bool:
    """Whether the finder's `boxes` are narrower than SHARPER_TILE (their median)."""
    return bool(boxes) and float(np.median([tile_net.frame(b)[3] for b in boxes])) < SHARPER_TILE


@dataclass
class QuickLook:
    """The tiles read, on `detail` (the photo `photo` in BGR), and how many times as big
    `detail` is as the photo the quick look was given (2 where it was decoded again at
    twice the size, its tiles small)."""

    found: list[Found]
    detail: np.ndarray
    photo: Photo
    closer: float = 1.0
    light: bool = False

    def leaves_nothing_unread(self, on_a_table: bool = False) -> bool:
        """Whether the tiles read leave no pips outside them (pip_marks.pips_left), nor the
        colour of their faces where a tile would fit (face_marks.face_left): the finder
        then missed no tile, the blank ones included. Taken as true where the tiles
        read are small and were read on a sharper decoding: the quick look was made for
        those, the classical looks read them no better, and the search for pips there
        cost 15 to 30 ms. Never true of a reading with no tile of two pips or more, which
        tells too little, nor with no tile read surely (network_look.SURE_SIZE) to tell
        the faces' colour. On a `light` table the faces' colour left counts only where it
        makes a tile-sized rectangle, and not one hugging a tile read where the network
        reads no other tile (network_look._side_wall: a thick tile's side wall and the
        paper it tints); the quick look reads no tile there where that colour lies all
        about the tiles (network_look.put_together). `on_a_table`: see
        network_look.leaves_nothing_unread."""
        if not any(network_look.read_surely(f) for f in self.found):
            return False
        width = float(np.median([tile_net.frame(f.corners)[3] for f in self.found if f.pips > 1]))
        if self.closer > 1 and width / self.closer < SHARPER_TILE:
            return True
        return network_look.leaves_nothing_unread(self.detail, self.found, in_rectangles=self.light,
                                                  on_a_table=on_a_table)


def quick_look(photo: Photo, sight: Sight, data: bytes | None, effort: Effort, light: bool = False) -> QuickLook:
    """The network's reading of the tiles the finder finds on `photo` (`sight`: what the
    finder sees on its pixels; decoded from `data`, and again at twice the size when its
    tiles are small there), its searches made while `effort` (the work done reading the
    photo so far) affords them; on a `light` table (see table), none where they may not
    make it whole, and then no tile (network_look.put_together). Small tiles read on a sharper decoding are
    this look's to read on any table: the classical looks read them no better. A tile
    with a blank half the network reads very surely is not marked for checking where
    the finder found a tile (network_look.put_together's `vouched`)."""
    detail, boxes = sight.detail, sight.boxes
    half, closer = None, 1.0
    if small_boxes(boxes) and sharper_decoding(photo, data):
        sharper = sharper_photo(photo, data)
        closer = photo.scale / sharper.scale
        boxes = [b * closer for b in boxes]
        photo, detail, half, light = sharper, sharper.bgr, detail, False
    found = network_look.put_together(detail, [], boxes, effort, vouched=boxes, half=half, light=light)
    return QuickLook(found, detail, photo, closer, light)
