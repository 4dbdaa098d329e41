"""A table photographed from a seat, seen from above.

From a seat, 30 to 50 degrees above the table, the tiles of a Chicken Foot layout are
squeezed along the lean, the far ones small, and every line of touching tiles runs at its
own slant. The tile finder's boxes there lie at the right place but often at the wrong
angle, across two touching tiles, and the network's moves do not bring them onto a tile.
The tiles read surely on the photo tell the camera's tilt (perspective.fit_turn): turned
to the view from above, the layout is what the networks read best, tiles of one size
lying flat, and it is read again there. The view is scaled so that its tiles are as wide
as the nearest were on the photo, up to TILE_WIDTH, which enlarges the far ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import perspective

#: The tiles read this surely tell the tilt (a misread outline would bend it)...
SURE = 0.9
#: ...and the view shows this many tile lengths about the tiles read, where tiles missed
#: on the photo may lie.
MARGIN = 1.5
#: The view's longest side at most: as long as the photo's own detail (loading.DETAIL_LONG_SIDE).
MAX_SIDE = 2048
#: The view's tiles at most this wide, in pixels: the networks read tiles of 16 to 48
#: pixels (tile_finder.py), and a view of wider tiles costs more to look over for
#: nothing (a 12 MP photo's view takes 140 to 200 ms to read with its tiles 70 pixels
#: wide, 60 to 120 at 48).
TILE_WIDTH = 48


@dataclass(frozen=True)
class View:
    """The view from above (`bgr`), and the homography from its pixels to the photo's."""

    bgr: np.ndarray
    to_photo: np.ndarray

    def on_photo(self, corners: np.ndarray) -> np.ndarray:
        """Points of the view, (n, 2), where they lie on the photo."""
        return _mapped(corners, self.to_photo)


def from_above(detail: np.ndarray, outlines: list[np.ndarray], sure: list[bool]) -> View | None:
    """The view from above of the photo `detail` (BGR) on which tiles with these
    `outlines` (corners in TileBox order) were read, `sure` of which tell the tilt; None
    where too few do, or where they show none that matters (perspective.MIN_TILT)."""
    told = np.array([o for o, s in zip(outlines, sure) if s], np.float64).reshape(-1, 4, 2)
    if len(told) < perspective.MIN_TILES:
        return None
    h, w = detail.shape[:2]
    centres, areas, across = perspective.measures(told)
    turn = perspective.fit_turn(centres, areas, across, w, h)
    if turn is None:
        return None
    # as wide as the widest on the photo (TILE_WIDTH at most): the far tiles enlarged
    widths = np.linalg.norm(across, axis=1)
    turned = _mapped(told.reshape(-1, 2), turn).reshape(-1, 4, 2)
    width = float(np.median(np.linalg.norm(turned[:, 0] - turned[:, 1], axis=1)))
    every = _mapped(np.array(outlines, np.float64).reshape(-1, 2), turn)
    if width <= 0 or not np.all(np.isfinite(every)):
        return None
    scale = min(float(widths.max()), TILE_WIDTH) / width
    low, high = every.min(axis=0) - 2 * MARGIN * width, every.max(axis=0) + 2 * MARGIN * width
    scale = min(scale, MAX_SIDE / float((high - low).max()))
    place = np.array([[scale, 0, -scale * low[0]], [0, scale, -scale * low[1]], [0, 0, 1.0]]) @ turn
    size = tuple(int(v) for v in np.ceil(scale * (high - low)))
    bgr = cv2.warpPerspective(detail, place, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return View(bgr=bgr, to_photo=np.linalg.inv(place))


def _mapped(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), homography).reshape(-1, 2)
