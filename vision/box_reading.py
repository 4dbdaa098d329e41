"""Reading one tile box the classical way: the box fitted to the tile, the tile warped
upright, its pips counted (pips.read_tile), and the reading scored.

A box comes from a divider bar (geometry.fit_tile) or from a tile's body (bodies.py),
and is only roughly the tile's outline. Its long sides are looked for again by colour
(refine_width) and its ends where the face's colour stops (refine_length); a box whose
ends run on into a touching tile, one that cuts pips at an end or a side, and a body's
box that takes in a thick tile's near side wall are read another way too, and the
better reading is kept (read_candidate). A reading is a Candidate: the box, the pips
read (pips.TileReading), its score (how clean the reading is) and its outline on the
decoded photo. `rank` weighs the score by how much the box looks like a tile found by
its divider, and `confidence` is the figure reported for the tile.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .geometry import RATIO_MAX, RATIO_MIN, TileBox
from .pips import CW, TileReading, colour_distance, lab_image, median, median_colour, read_tile, warp_tile

#: A reading scored at least this is clean: it sets the set's width and ratio, and a
#: box that scores less is doubtful enough to be read another way.
CLEAN = 0.5
#: A reading scored at least this is sure: other boxes are measured against its tile.
SURE = 0.9
#: Two boxes overlapping by more than this (a share of the smaller) are on the same tile.
OVERLAPPING = 0.25


class Candidate:
    __slots__ = ("box", "reading", "score", "corners_detail", "score_rank", "face")

    def __init__(self, box: TileBox, reading: TileReading, score: float, corners_detail: np.ndarray) -> None:
        self.box = box
        self.reading = reading
        self.score = score
        self.corners_detail = corners_detail
        self.face: np.ndarray | None = None  # its face's colour (a, b), once asked for (set_consensus)


def _score(box: TileBox, rd: TileReading) -> float:
    """The confidence reported for a tile: mostly how clean its pip reading was."""
    return rd.confidence * (0.85 + 0.15 * min(1.0, box.edge / 4.0))


def prerank(box: TileBox) -> float:
    fill = min(1.0, box.bar.fill / 0.7) * 0.3 + 0.7
    edge = min(1.0, box.edge / 6.0) * 0.5 + 0.5
    return fill * edge * (1.25 if box.bar.joined else 1.0) * (0.6, 0.85, 1.0)[int(round(box.ends * 2))]


def rank(c: "Candidate") -> float:
    # a divider joined across a spinner beats its own halves; a bar whose ends are not
    # inside a face (a seam between touching tiles) loses to real dividers
    return c.score * prerank(c.box) * _shape_likelihood(c.box)


def _shape_likelihood(box: TileBox) -> float:
    """Tiles are twice as long as wide. A photo taken at an angle changes that, often by
    up to 15 %, seldom by much more: a box far from 2:1 is more likely a misfit (its
    sides on a pip column, its end at the frame) than a strongly foreshortened tile."""
    deviation = abs(float(np.log(box.length / (2.0 * box.width))))
    return float(np.clip(1.0 - 0.6 * (deviation - 0.15), 0.7, 1.0))


def confidence(c: "Candidate") -> float:
    """Reported confidence: the reading's cleanliness and the detection's, together."""
    return round(float(np.sqrt(c.score * min(1.0, rank(c)))), 3)


EXT = 3.4  # the extended warp covers this many tile widths along the tile


def refine_length(detail: np.ndarray, box: TileBox, f: float) -> TileBox:
    """Find the two short ends of the tile: walking out from the divider, the first rows
    that are no longer face coloured. The divider is in the middle of the tile, so one end
    found is enough; with none, the tile is taken to be twice as long as wide."""
    ext = replace(box, length=EXT * box.width)
    H = int(round(EXT * CW))
    canon = warp_tile(detail, ext.corners() / f, out_h=H)
    de, _ = delta_e_map_ends(canon)
    thr = 14.0
    ok = de < thr
    # columns between the pip columns of every standard layout: pips rarely cross them...
    gaps = np.concatenate([ok[:, int(0.31 * CW):int(0.39 * CW) + 1], ok[:, int(0.61 * CW):int(0.69 * CW) + 1]],
                          axis=1).mean(axis=1)
    # ...but a blurred row of 3 pips can; a row past the tile's end leaves the face across
    # the whole width, a row of pips never covers much more than half of it
    across = ok[:, int(0.12 * CW):int(0.88 * CW) + 1].mean(axis=1)
    face = np.maximum(gaps, across)
    # the frame cuts a close-up tile: its end is at the frame, not in the replicated border
    face[_rows_outside(ext, H, detail.shape, f)] = 0.0
    mid = H / 2.0
    found = []
    start = int(round(0.6 * CW))
    ds = np.arange(start, int(round(0.5 * H)))
    for sign in (1, -1):
        bare = face[np.rint(mid + sign * ds).astype(np.intp)] < 0.3
        two = np.nonzero(bare[:-1] & bare[1:])[0]  # two rows running off the face
        found.append(start + int(two[0]) if two.size else None)
    dp, dm = found
    # the divider is in the middle of the tile: the ends are symmetric
    if dp is not None and dm is not None and abs(dp - dm) < 0.15 * CW:
        half_p, half_m = dp, dm
    elif dp is not None or dm is not None:
        # one end is missing or the two disagree (a shadow, a touching tile): keep the
        # one nearer a 2:1 tile
        d = min((x for x in (dp, dm) if x is not None), key=lambda x: abs(x - CW))
        half_p = half_m = d
    else:
        return box
    k = box.width / CW
    length = (half_p + half_m) * k
    if not (1.3 * box.width <= length <= 3.0 * box.width):
        return box
    shift = (half_p - half_m) / 2.0 * k
    ax, ay = box.axis
    return replace(box, cx=box.cx + shift * ax, cy=box.cy + shift * ay, length=length)


#: The band searched for the tile's long sides covers this many tile widths across.
EXT_W = 1.6
#: Pixels per tile width in that band.
BAND_PX = 64


def refine_width(detail: np.ndarray, box: TileBox, f: float) -> TileBox:
    """Find the tile's two long sides by colour: walking out from the divider's ends along
    its line, the first column that is no longer face coloured. The rows just beside the
    divider are bare face on every layout, so no pip is in the way; a shadow or a lit
    bevel beside the tile is, to the colour, not face, while it can be the stronger edge.
    Kept only when both sides are found and the divider is about centred between them
    (ivory on white paper has no colour edge: the edge search's box stays)."""
    W = box.width
    n_cols = int(round(EXT_W * BAND_PX))
    n_rows = BAND_PX // 2
    band = warp_tile(detail, replace(box, width=EXT_W * W, length=0.5 * W).corners() / f,
                     out_h=n_rows, out_w=n_cols)
    lab = lab_image(band)
    px = BAND_PX / W  # band pixels per work pixel
    mid_r, mid_c = n_rows / 2.0, n_cols / 2.0
    r_in = int(np.ceil(0.5 * box.bar.thickness * px + 1.5))
    r_out = int(0.16 * BAND_PX)
    if r_out - r_in < 2:
        return box
    rows = np.r_[int(mid_r) - r_out:int(mid_r) - r_in, int(mid_r) + r_in + 1:int(mid_r) + r_out + 1]
    gutter = lab[rows]
    half_bar = 0.5 * box.bar.length * px
    beside = slice(int(mid_c - 0.8 * half_bar), int(mid_c + 0.8 * half_bar))
    face = median_colour(gutter[:, beside].reshape(-1, 3))
    de = colour_distance(gutter - face)
    noise = median(de[:, beside])  # the face's own spread, beside the divider
    is_face = (de < max(14.0, 3.0 * noise)).mean(axis=0)
    steps = range(int(half_bar + 0.06 * BAND_PX) + 1, int(mid_c) - 1)  # out from the divider's ends
    sp = next((k for k in steps if is_face[int(mid_c + k)] < 0.25), None)
    sm = next((k for k in steps if is_face[int(mid_c - k) - 1] < 0.25), None)
    if sp is None or sm is None:
        return box
    width = (sp + sm) / px
    shift = (sp - sm) / 2.0 / px
    if abs(shift) > 0.06 * width or not (RATIO_MIN <= box.bar.length / width <= RATIO_MAX):
        return box
    offset = (box.cx - box.bar.cx) * box.ux + (box.cy - box.bar.cy) * box.uy
    if abs(width / W - 1.0) < 0.05 and abs(shift - offset) < 0.03 * W:
        return box  # about the same box
    return replace(box, cx=box.bar.cx + shift * box.ux, cy=box.bar.cy + shift * box.uy, width=width,
                   length=2 * width)


def _rows_outside(box: TileBox, rows: int, shape: tuple, f: float) -> np.ndarray:
    """For each row of `box` warped to `rows` rows: does its centre lie outside the photo?"""
    t = ((np.arange(rows) + 0.5) / rows - 0.5) * box.length
    ax, ay = box.axis
    xs = (box.cx + t * ax) / f
    ys = (box.cy + t * ay) / f
    h, w = shape[:2]
    return (xs < 0) | (ys < 0) | (xs > w - 1) | (ys > h - 1)


def delta_e_map_ends(canon: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Colour distance to the face colour sampled next to the divider."""
    lab = lab_image(canon)
    H = lab.shape[0]
    m = H // 2
    near = np.concatenate([lab[m - int(0.6 * CW):m - int(0.1 * CW):2, int(0.1 * CW):int(0.9 * CW):2].reshape(-1, 3),
                           lab[m + int(0.1 * CW):m + int(0.6 * CW):2, int(0.1 * CW):int(0.9 * CW):2].reshape(-1, 3)])
    face = median_colour(near)
    return colour_distance(lab - face), face


def read_candidate(detail: np.ndarray, box: TileBox, f: float) -> Candidate | None:
    """The tile read in `box`, or in the box its colour gives it, or, for a box found by
    its body, in the box without its near side wall, when that reads better."""
    c = _read(detail, box, f)
    other = refine_width(detail, box, f)
    if other is not box:
        c2 = _read(detail, other, f)
        if c2 is not None and (c is None or c2.score >= c.score):
            c = c2
    if box.body and (c is None or c.score < CLEAN):
        wall = _without_near_wall(box)
        if wall is not None:
            c2 = _read(detail, wall, f)
            if c2 is not None and (c is None or c2.score > c.score):
                c = c2
    return c


#: A body box that reads poorly is read again without this share of its depth on the
#: side facing the bottom of the photo (0.2 and 0.28 found fewer tiles or invented more).
SIDE_WALL = 0.15


def _without_near_wall(box: TileBox) -> TileBox | None:
    """`box` without the tile's near side wall: a photo taken at a steep angle shows the
    side of a thick tile facing the camera (the bottom of the photo) below its face, the
    face's own colour in shade, and a black tile's body blob takes it in, so that the box
    is off the face and cuts its pips. None for a box with no side facing down."""
    sides = [(box.ux, box.uy, True), (-box.ux, -box.uy, True), (box.nx, box.ny, False), (-box.nx, -box.ny, False)]
    vx, vy, across = max(sides, key=lambda s: s[1])
    if vy < 0.5:
        return None
    d = SIDE_WALL * (box.width if across else box.length)
    return replace(box, cx=box.cx - vx * d / 2, cy=box.cy - vy * d / 2,
                   width=box.width - d if across else box.width, length=box.length if across else box.length - d)


#: A box whose ends, found by colour, make it longer than this many times its 2:1 length...
LONGER = 1.12
#: ...is read at 2:1 as well, and that reading is kept when its score is this much better.
CLEARLY_BETTER = 0.15


def _read(detail: np.ndarray, box: TileBox, f: float) -> Candidate | None:
    """The tile read in `box` with its ends found by colour, or at 2:1 when those ends
    run on and the reading is doubtful: tiles touching end to end have no colour edge
    between them, and the walk along the face goes on into the next tile's pips (an
    orange [10|5] read [13|5]). A fair reading of the longer box stands: the box's width
    may be short, and its 2:1 length then cuts a row of pips."""
    refined = refine_length(detail, box, f)
    c = _read_box(detail, refined, f)
    if refined is not box and refined.length > LONGER * box.length and (c is None or c.score < CLEAN):
        c2 = _read_box(detail, box, f)
        if c2 is not None and (c is None or c2.score > c.score + CLEARLY_BETTER):
            c = c2
    if c is not None and any(c.reading.cut):
        c2 = _read_box(detail, _grown(c.box, c.reading.cut), f)
        if c2 is not None and sum(c2.reading.cut) < sum(c.reading.cut) and c2.score > c.score + CLEARLY_BETTER:
            c = c2
    return c


#: A box cutting pips at one of its ends or sides is read again grown by this much of
#: its width on that side.
GROW = 0.15


def _grown(box: TileBox, cut: tuple[int, int, int, int]) -> TileBox:
    """`box` grown on each side where its outline cuts pips (its top end, bottom end,
    left and right side in the canonical image: -n, +n, -u, +u)."""
    d = GROW * box.width
    top, bottom, left, right = (d if k else 0.0 for k in cut)
    ax, ay = box.axis
    along = (bottom - top) / 2
    across = (right - left) / 2
    return replace(box, cx=box.cx + along * ax + across * box.ux, cy=box.cy + along * ay + across * box.uy,
                   length=box.length + top + bottom, width=box.width + left + right)


def _read_box(detail: np.ndarray, box: TileBox, f: float) -> Candidate | None:
    corners_detail = box.corners() / f
    rd = read_tile(_upright(detail, box, f), body=box.body)
    if rd is None:
        return None
    return Candidate(box, rd, _score(box, rd), corners_detail)


def _upright(detail: np.ndarray, box: TileBox, f: float) -> np.ndarray:
    """The tile in `box` warped upright (read_tile's canonical image), its divider on
    the middle row: when the box does not sit centred on its divider (an end found
    farther than the other, a box grown at one end), each half is warped on its own."""
    t = (box.bar.cx - box.cx) * box.nx + (box.bar.cy - box.cy) * box.ny  # the divider, along the tile
    if abs(t) < 0.02 * box.width:
        return warp_tile(detail, box.corners() / f)
    ax, ay = box.axis
    halves = []
    for lo, hi in ((-box.length / 2, t), (t, box.length / 2)):
        mid = (lo + hi) / 2
        half = replace(box, cx=box.cx + mid * ax, cy=box.cy + mid * ay, length=hi - lo)
        halves.append(warp_tile(detail, half.corners() / f, out_h=CW))
    return np.vstack(halves)


def mostly_inside(box: TileBox, w: int, h: int) -> bool:
    c = box.corners()
    m = 0.15 * box.width
    return bool((c[:, 0] > -m).all() and (c[:, 0] < w + m).all() and (c[:, 1] > -m).all() and (c[:, 1] < h + m).all())
