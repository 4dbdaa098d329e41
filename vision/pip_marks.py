"""Where pips are that no tile found covers: boxes for the tile network to look at.

A black tile on dark wood, its divider an engraved line, is no blob and shows no divider
to the classical looks; but its pips, white dots the size the set's pips are, stand out
at once. Dots of that size far from every tile found are grouped (pips of one tile lie
closer together than a tile's width), and each group gets a few tile-sized boxes about
it, along and across its longer side, for the network to move onto the tile (see
network_look.py).
"""

from __future__ import annotations

import cv2
import numpy as np

from .components import components
from .geometry import shrunk, uncovered
from .tile_net import box_corners

#: The photo is looked at where the tiles found are this many pixels wide.
TILE_PX = 24
#: A pip stands out from the face around it by this much lightness (8-bit L) or more.
PIP_CONTRAST = 40
#: A pip's area, in tile widths squared: the sets' pips are 0.13 to 0.22 of a width across.
PIP_AREA = (0.01, 0.05)
#: Pips closer than this (in tile widths) are of one tile.
SAME_TILE = 0.55
#: At most this many boxes are proposed, about the biggest groups first: a tile shows two
#: pips or more but for a 1 | 1 or a 1 | 0, and a lone dot is more often the table's grain
#: (in the order found, 60 boxes left three tiles of a harsh photo without one).
MAX_BOXES = 90
#: More loose dots than this are the table's pattern (polka dots, gingham), not pips
#: (twenty double-twelve tiles have at most 480): then only the dots on a plain ring are
#: kept, and if there are still more, none is looked at.
MAX_DOTS = 300
#: A pip lies on its tile's plain face: the lightness on a ring this far from its centre
#: (in tile widths, short of the next pip) spreads by less than RING_SPREAD (8-bit L,
#: between the quartiles). Where a gingham's squares meet, two light and two dark
#: quadrants make the dots the pattern is, their ring spreading by 40 and more.
RING = 0.17
RING_SPREAD = 20


#: The lightness (Lab's L, 8-bit) of each level of grey: the dots are looked for on the
#: photo made grey, then given the lightness of their grey (near black, L rises 1.4
#: levels a grey level: taken as the lightness itself, grey lost 8 harsh tiles).
_GREY_LIGHTNESS = cv2.cvtColor(np.repeat(np.arange(256, dtype=np.uint8), 3).reshape(1, 256, 3),
                               cv2.COLOR_BGR2LAB)[0, :, 0].copy()


def boxes_at_loose_pips(detail: np.ndarray, tile_width: float, covered: list[np.ndarray],
                        half: np.ndarray | None = None) -> list[np.ndarray]:
    """Tile boxes (TileBox.corners on `detail`) about the groups of pip-like dots of a
    set whose tiles are `tile_width` wide on `detail`, away from the `covered` outlines
    (`half`: see geometry.shrunk)."""
    dots, plain = _loose_dots(detail, tile_width, covered, half)
    if len(dots) == 0 or (plain is not None and plain.sum() > MAX_DOTS):
        return []
    groups = sorted(_groups(dots if plain is None else dots[plain], SAME_TILE * tile_width), key=len, reverse=True)
    out: list[np.ndarray] = []
    # every group's boxes along and across it first: the turned ones (_turned_boxes),
    # which a few groups need, come after, and crowd out no group's (among them, on a harsh
    # photo of small tiles on marble, they leave a [6|2]'s pips without a box)
    for boxes_about in (_boxes_about, _turned_boxes):
        for group in groups:
            if len(out) >= MAX_BOXES:
                break
            out += boxes_about(group, tile_width)
    return out[:MAX_BOXES]


#: A group of this many pips or more that no tile covers is a tile missed (pips_left).
LEFT_GROUP = 2


def pips_left(detail: np.ndarray, tile_width: float, covered: list[np.ndarray]) -> bool:
    """Whether a group of LEFT_GROUP or more pip-like dots, each on a plain face (a ring
    of even lightness about it: _on_plain_face), lies away from the `covered` outlines on
    `detail`, for a set whose tiles are `tile_width` wide there: a tile the outlines miss,
    nearly always. A tile's own side and its shadow on a dark table make a pair of dark
    dots at its edge, their ring half face and half table; pips on a face have face all
    round. Where there are more such dots than MAX_DOTS, the table's pattern, pips may
    hide among them: they are taken to be left."""
    groups = _groups_left(detail, tile_width, covered)
    return groups is None or bool(groups)


def boxes_at_pips_left(detail: np.ndarray, tile_width: float, covered: list[np.ndarray]) -> list[list[np.ndarray]] | None:
    """For each group of pips pips_left tells, the tile boxes about it (as
    boxes_at_loose_pips makes them); None where they may hide among a pattern's dots."""
    groups = _groups_left(detail, tile_width, covered)
    return None if groups is None else [_boxes_about(g, tile_width) + _turned_boxes(g, tile_width) for g in groups]


def _groups_left(detail: np.ndarray, tile_width: float, covered: list[np.ndarray]) -> list[np.ndarray] | None:
    """pips_left's groups of LEFT_GROUP or more dots on a plain face; None where there are
    more such dots than MAX_DOTS."""
    dots, plain = _loose_dots(detail, tile_width, covered, None, plain_always=True)
    if len(dots) == 0:
        return []
    if plain.sum() > MAX_DOTS:
        return None
    return [g for g in _groups(dots[plain], SAME_TILE * tile_width) if len(g) >= LEFT_GROUP]


def _loose_dots(detail: np.ndarray, tile_width: float, covered: list[np.ndarray], half: np.ndarray | None,
                plain_always: bool = False) -> tuple[np.ndarray, np.ndarray | None]:
    """The pip-like dots on `detail` away from the `covered` outlines (tiles `tile_width`
    wide), and which of them are on a plain face (_on_plain_face), found only where there
    are more than MAX_DOTS of them, or where asked for (`plain_always`); None if not."""
    f = TILE_PX / tile_width
    # made grey before it is shrunk: shrinking three channels takes 12 to 25 ms on a 3 MP
    # decoding, and converting them to Lab 4 to 9; one grey channel shrinks in a third
    lightness = cv2.LUT(shrunk(detail, f, half, grey=True), _GREY_LIGHTNESS)
    dots_small = _dots(lightness)
    free = uncovered(dots_small / f, covered)
    dots_small = dots_small[free]
    plain = _on_plain_face(lightness, dots_small) if plain_always or len(dots_small) > MAX_DOTS else None
    return dots_small / f, plain


def _dots(lightness: np.ndarray) -> np.ndarray:
    """Centres of the light and dark dots of a pip's size (TILE_PX-wide tiles)."""
    size = int(0.45 * TILE_PX) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    lo, hi = PIP_AREA[0] * TILE_PX ** 2, PIP_AREA[1] * TILE_PX ** 2
    centres = []
    for op in (cv2.MORPH_TOPHAT, cv2.MORPH_BLACKHAT):
        hat = cv2.morphologyEx(lightness, op, kernel)
        mask = (hat >= PIP_CONTRAST).astype(np.uint8)
        # sparse masks of up to 2.4 MP (tiles 27 px wide on a 3 MP decoding): see components.py
        _, _, stats, cents = components(mask)
        bw, bh, area = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT], stats[1:, cv2.CC_STAT_AREA]
        round_ = (area >= lo) & (area <= hi) & (np.maximum(bw, bh) <= 2 * np.minimum(bw, bh))
        centres.append(cents[1:][round_])
    return np.concatenate(centres).astype(np.float64).reshape(-1, 2)


def _on_plain_face(lightness: np.ndarray, dots: np.ndarray) -> np.ndarray:
    """Which `dots` (on `lightness`, TILE_PX-wide tiles) have a ring of even lightness
    about them, as a pip on its face has (see RING)."""
    a = np.linspace(0.0, 2 * np.pi, 12, endpoint=False)
    r = RING * TILE_PX
    h, w = lightness.shape
    xs = np.clip(np.rint(dots[:, :1] + r * np.cos(a)).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(dots[:, 1:] + r * np.sin(a)).astype(np.intp), 0, h - 1)
    q1, q3 = np.percentile(lightness[ys, xs].astype(np.float64), [25, 75], axis=1)
    return q3 - q1 < RING_SPREAD


def _groups(points: np.ndarray, reach: float) -> list[np.ndarray]:
    """The points linked by chains of steps shorter than `reach`."""
    n = len(points)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    d = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    for i, j in zip(*np.nonzero(np.triu(d < reach, 1))):
        parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return [points[idx] for idx in groups.values()]


def _axis(group: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The centre of a group of pips, the direction of its longer side and its length
    along that."""
    centre = group.mean(axis=0)
    if len(group) < 2:
        return centre, np.array([1.0, 0.0]), 0.0
    _, vecs = np.linalg.eigh(np.cov((group - centre).T))
    axis = vecs[:, -1]
    return centre, axis, float(np.ptp((group - centre) @ axis))


def _boxes_about(group: np.ndarray, width: float) -> list[np.ndarray]:
    """Tile boxes about a group of pips: along its longer side and across it, centred on
    it and half a tile to either end (the group may be one half of the tile), and along
    a group longer than a tile, one every tile's length."""
    centre, axis, span = _axis(group)
    out = []
    for n in (axis, np.array([-axis[1], axis[0]])):
        along = np.arange(-(span // (2 * width)), span // (2 * width) + 1) * 2 * width if n is axis else [0.0]
        for t in along:
            for shift in (0.0, 0.5 * width, -0.5 * width):
                out.append(box_corners(centre + (t + shift) * n, n, width, 2 * width))
    return out


#: A group of this many pips or fewer, no longer than a tile is wide, may be a two or a
#: three (_turned_boxes).
DIAGONAL_GROUP = 3


def _turned_boxes(group: np.ndarray, width: float) -> list[np.ndarray]:
    """Tile boxes about a group of two or three pips within a tile's width, which may be
    a two or a three: those lie on a diagonal of their half, their longer side turned 45
    degrees from the tile's, and the boxes are turned so too, half a tile to either end
    of the group (none for any other group). A [3|0] lying alone on white paper, which
    the finder does not see, is found by those only (jmherzog's 1.jpeg enlarged to 12
    MP: two of its three pips make the group, and the boxes along them and across them
    read no tile)."""
    centre, axis, span = _axis(group)
    if not 2 <= len(group) <= DIAGONAL_GROUP or span > width:
        return []
    across = np.array([-axis[1], axis[0]])
    return [box_corners(centre + shift * n, n, width, 2 * width)
            for n in ((axis + across) / np.sqrt(2), (axis - across) / np.sqrt(2)) for shift in (0.5 * width, -0.5 * width)]
