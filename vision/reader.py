"""The pipeline: bytes -> pixels -> the tile finder's boxes -> the tile network's reading
-> Hand (finder_look.py), for a busy photo, one whose tiles read account for its pips,
or small tiles on a big JPEG; for the others, bytes -> pixels -> divider bars -> tile
boxes -> pips -> the tile network's second reading (of the tile finder's boxes too,
where the first look finds small tiles or a photo taken at an angle: needs_finder) ->
Hand (chosen in _read_tiles)."""

from __future__ import annotations

import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from . import annotate, face_marks, finder_look, network_look, perspective, tile_finder, tile_net
from .finder_look import quick_look
from .effort import Effort
from .bodies import every_split, find_bodies, split_block
from .dividers import MARK_THRESHOLD, find_bars, map_pyramid
from .geometry import (RATIO_MAX, RATIO_MIN, EdgeField, TileBox, corners_overlap, dedupe_bars, ends_inside_face,
                       fit_tile, join_split_bars, measure_flatness, overlap)
from .errors import PhotoError, VisionUnavailable
from .loading import SHARPER_TILE, Photo, load_photo, sharper_decoding
from .network_look import Found
from .pips import CW, MIN_DIVIDER_CONTRAST, TileReading, colour_distance, lab_image, median, median_colour, read_tile, warp_tile
from .result import LOW_CONFIDENCE, Hand, Tile

WORK_LONG_SIDE = 640
MIN_SCORE = 0.15
#: Lowest confidence at which a tile of at most one pip is reported.
BLANK_MIN_CONFIDENCE = 0.5
#: ...and the least contrast of its divider with the face (colour units).
BLANK_MIN_DIVIDER = 40.0
#: A reading scored at least this is clean: it sets the set's width and ratio, and a
#: box that scores less is doubtful enough to be read another way.
CLEAN = 0.5
#: A reading scored at least this is sure: other boxes are measured against its tile.
SURE = 0.9
#: Two boxes overlapping by more than this (a share of the smaller) are on the same tile.
OVERLAPPING = 0.25
#: At most this many divider candidates are examined (busy backgrounds make hundreds).
MAX_BARS = 100
#: At most this many tile boxes are read.
MAX_READS = 60
#: At most this many boxes of blocks split every way are shown to the tile network.
MAX_SPLITS = 48
#: At most this many rejected boxes are read again at the width the other tiles agree on.
MAX_RETRIES = 12
#: A rejected box already at that width is read again at this fraction of it.
NARROWER = 0.85
#: Tiles narrower than this (working pixels) are small: the tile finder's boxes are read too
#: (needs_finder; they took a look at 1.6 times the size before).
SMALL_TILE = 30


class Candidate:
    __slots__ = ("box", "reading", "score", "corners_detail", "score_rank", "face")

    def __init__(self, box: TileBox, reading: TileReading, score: float, corners_detail: np.ndarray) -> None:
        self.box = box
        self.reading = reading
        self.score = score
        self.corners_detail = corners_detail
        self.face: np.ndarray | None = None  # its face's colour (a, b), once asked for (_face)


class Working:
    """The photo `detail` (BGR) at the working size (WORK_LONG_SIDE), scaled by `f`:
    every look at one photo is made at that size (the first, the one for faint dividers,
    the first made whole again once it was cut short), and they share this image, its
    edge field, its marks' contrast maps and the tiles' bodies and blocks found on it
    (each made once, when first asked for: shrinking a 12 MP photo decoded at a quarter
    to it took 4 ms, its edge field 3 to 4, its contrast maps 5)."""

    def __init__(self, detail: np.ndarray) -> None:
        self.f = WORK_LONG_SIDE / max(detail.shape[:2])
        self.image = cv2.resize(detail, _work_size(detail.shape),
                                interpolation=cv2.INTER_AREA if self.f < 1 else cv2.INTER_LINEAR)
        # kept here, not by functools.cached_property: on Python 3.11 that holds one lock
        # for every instance, and the web server's threads would wait for each other's
        self._field: EdgeField | None = None
        self._maps: list[list[np.ndarray]] | None = None
        self._bodies: tuple[list[TileBox], list[TileBox]] | None = None

    @property
    def field(self) -> EdgeField:
        if self._field is None:
            self._field = EdgeField(self.image)
        return self._field

    @property
    def maps(self) -> list[list[np.ndarray]]:
        """The marks' contrast maps at every pyramid level (dividers.map_pyramid)."""
        if self._maps is None:
            self._maps = map_pyramid(self.image)
        return self._maps

    @property
    def bodies(self) -> tuple[list[TileBox], list[TileBox]]:
        """The tiles' bodies and blocks found on the image (bodies.find_bodies)."""
        if self._bodies is None:
            self._bodies = find_bodies(self.image)
        return self._bodies


@dataclass
class Look:
    """What one look at the photo found: its tiles (`kept`), whether the background was
    busy, the photo at the size it was made at (Working: the tiles' bodies and blocks
    found there, among others), and the outlines on the photo of every box it read
    (`proposals`: the tile network reads them again, network_look.py)."""

    kept: list[Candidate]
    busy: bool
    working: Working
    proposals: list[np.ndarray] = field(default_factory=list)
    #: Stopped once its tiles were seen to be small (_analyse's `until_small`): `kept`
    #: holds only those that tell, and `busy` is False when it stopped before it looked
    #: for dividers (not known then).
    cut_short: bool = False


def _score(box: TileBox, rd: TileReading) -> float:
    """The confidence reported for a tile: mostly how clean its pip reading was."""
    return rd.confidence * (0.85 + 0.15 * min(1.0, box.edge / 4.0))


def _prerank(box: TileBox) -> float:
    fill = min(1.0, box.bar.fill / 0.7) * 0.3 + 0.7
    edge = min(1.0, box.edge / 6.0) * 0.5 + 0.5
    return fill * edge * (1.25 if box.bar.joined else 1.0) * (0.6, 0.85, 1.0)[int(round(box.ends * 2))]


def _rank(c: "Candidate") -> float:
    # a divider joined across a spinner beats its own halves; a bar whose ends are not
    # inside a face (a seam between touching tiles) loses to real dividers
    return c.score * _prerank(c.box) * _shape_likelihood(c.box)


def _shape_likelihood(box: TileBox) -> float:
    """Tiles are twice as long as wide. A photo taken at an angle changes that, often by
    up to 15 %, seldom by much more: a box far from 2:1 is more likely a misfit (its
    sides on a pip column, its end at the frame) than a strongly foreshortened tile."""
    deviation = abs(float(np.log(box.length / (2.0 * box.width))))
    return float(np.clip(1.0 - 0.6 * (deviation - 0.15), 0.7, 1.0))


def _confidence(c: "Candidate") -> float:
    """Reported confidence: the reading's cleanliness and the detection's, together."""
    return round(float(np.sqrt(c.score * min(1.0, _rank(c)))), 3)


def _doubtful_blank(c: "Candidate", cands: list["Candidate"], detail: np.ndarray, f: float) -> bool:
    """A tile with no pip or one has little to show it is a tile at all: a streak of wood
    grain in a patch of plain table reads as a 0-0. Such readings are kept only when the
    detection is fairly sure of them and the divider stands out as a divider does (a
    real one differs from the face by 60 or more colour units, a streak by 20 to 30), or
    when the tile is like those read surely: their size, and nearly all of it their
    faces' colour (a set's fine engraved dividers stand out by 20 to 40)."""
    if c.reading.pips > 1:
        return False
    if _confidence(c) < BLANK_MIN_CONFIDENCE:
        return True
    return c.reading.divider_contrast < BLANK_MIN_DIVIDER and not _like_set(c, cands, detail, f)


#: A blank like the set's tiles (see _doubtful_blank) has at least this share of its box
#: of their faces' colour, and a divider differing from its face by at least this much.
BLANK_FACE_SHARE = 0.95
BLANK_FAINT_DIVIDER = 15.0
#: With fewer than SURE_TILES read surely, at least this many tiles found by their bodies,
#: with pips, each read this cleanly (a body read with no divider seen scores about 0.77),
#: stand for the set.
LIKE_BODY_SCORE = 0.75
LIKE_BODIES = 3


def _like_set(c: "Candidate", cands: list["Candidate"], detail: np.ndarray, f: float) -> bool:
    """Whether the tile read in `c` is like the others read surely: their size (the
    table's perspective allowing), nearly all its box their faces' colour, and a divider
    unless theirs cannot be seen either. A set whose dividers cannot be seen at all (an
    engraved line lost in the blur) has no tile read surely: its tiles are found by their
    bodies, and the clean readings of those with pips then stand for the set."""
    ref = [o for o in cands if o is not c and o.score >= SURE]
    if len(ref) < SURE_TILES:
        ref = [o for o in cands if o is not c and o.box.body and o.score >= LIKE_BODY_SCORE
               and o.reading.pips > 1]
        if len(ref) < LIKE_BODIES:
            return False
    unseen = float(np.median([o.reading.divider_contrast for o in ref])) < BLANK_FAINT_DIVIDER
    if c.reading.divider_contrast < BLANK_FAINT_DIVIDER and not unseen:
        return False
    widths = [o.box.width for o in ref]
    if not 0.85 * min(widths) <= c.box.width <= 1.18 * max(widths):
        return False
    return _face_share(c.box, ref, detail, f) >= BLANK_FACE_SHARE


#: Lowest confidence at which a tile found by its body, with no divider to be seen, is
#: reported (the real photos' barcode label and notebook edge read 0.26-0.27; 0.5 lost
#: 0.4-0.8 % of the third generator's tiles, and 0.3 invented more).
BODY_MIN_CONFIDENCE = 0.4


def _doubtful_body(c: "Candidate") -> bool:
    """A box found by its body whose divider cannot be seen at all is a tile only if it
    reads fairly surely: a label with a barcode, the edge of a notebook, are blobs about
    2:1 as well, with a few marks that read as pips."""
    return c.box.body and c.reading.divider_contrast < MIN_DIVIDER_CONTRAST and _confidence(c) < BODY_MIN_CONFIDENCE


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


def _candidate(detail: np.ndarray, box: TileBox, f: float) -> Candidate | None:
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


def _same_box(a: TileBox, b: TileBox) -> bool:
    return (abs(a.cx - b.cx) + abs(a.cy - b.cy) < 0.15 * a.width and abs(a.width / b.width - 1) < 0.15
            and abs(a.ux * b.ux + a.uy * b.uy) > 0.97)


def _mostly_inside(box: TileBox, w: int, h: int) -> bool:
    c = box.corners()
    m = 0.15 * box.width
    return bool((c[:, 0] > -m).all() and (c[:, 0] < w + m).all() and (c[:, 1] > -m).all() and (c[:, 1] < h + m).all())


def _most_divider_like(bars: list, field: EdgeField, n: int) -> list:
    """A busy background (wood grain, leather) makes hundreds of bars: keep the n that
    look most like dividers (ends inside a face, solid, long). Short half-dividers come
    after every whole one, longest first (such specks are the most numerous, and a half
    has one end at the spinner, not inside the face)."""
    whole = [b for b in bars if not b.half]
    measure_flatness(whole, field)
    q = [(ends_inside_face(b, field) + 0.5 * min(1.0, b.fill) + (0.5 if b.joined else 0.0)
          + 0.5 * min(4.0, b.flatness), b.length) for b in whole]
    order = sorted(range(len(whole)), key=lambda i: (-q[i][0], -q[i][1]))
    halves = sorted((b for b in bars if b.half), key=lambda b: -b.length)
    return ([whole[i] for i in order] + halves)[:n]


def analyse(photo: Photo) -> list[Candidate]:
    """The tiles the classical looks alone find on `photo`: the first look, and the look
    for faint dividers when that one asks for it (first_looks, _classical_end), whether or
    not _read_tiles would give the photo to the quick look, or the finder's boxes in place
    of the look for faint dividers (needs_finder). The tests measure those looks so."""
    effort = Effort()
    first, faint_looked = first_looks(photo.bgr, effort)
    return _classical_end(photo.bgr, first, faint_looked, effort).kept


def first_looks(detail: np.ndarray, effort: Effort, first: Look | None = None) -> tuple[Look, bool]:
    """The first look at `detail` (the photo in BGR; `first`, when it was made already),
    and whether it found nothing on a quiet photo, so that it was looked at again for
    faint dividers (whose look is then the one returned, with the first's Working and the
    proposals of both)."""
    if first is None:
        first = _analyse(detail, effort=effort)
    if first.kept or first.busy:
        return first, False
    # a set whose dividers are fine engraved lines may show none to the usual threshold
    return _with_faint_look(detail, first, effort), True


def small_tiles(photo: Photo, data: bytes | None, kept: list[Candidate]) -> bool:
    """Whether the tiles `kept` by the first look (or none) are small on `photo`, a JPEG
    decoded at a reduced size from `data`: a tile 30 pixels wide there has pips of 3 or
    4 pixels, found at the working size by their bodies at best."""
    measuring = _measuring(kept)
    return sharper_decoding(photo, data) and (not measuring or _small(measuring))


#: A look told to stop once its tiles are small stops when this many tell.
SMALL_SEEN = 2


def _small(measuring: list[Candidate]) -> bool:
    """Whether tiles that tell the set's size (_measuring, one or more) say it is
    narrower than SHARPER_TILE on the decoded photo."""
    return float(np.median([_detail_width(c) for c in measuring])) < SHARPER_TILE


def needs_finder(detail: np.ndarray, first: Look) -> bool:
    """Whether the first look at `detail` leaves tiles that the classical looks would
    miss, and the tile finder sees: small ones (_small_at_work) or a photo taken at an
    angle (_taken_at_an_angle), both of which took further classical looks before (at
    1.6 times the size, at twice the decoding, from above: up to three more). The
    finder's boxes, read by the network with the first look's, read as many tiles right
    on the development sets (860 harsh and real photos, and the real ones turned and
    relit): 4 more of 7,720 and 4 fewer invented, in a fifth less time."""
    return _small_at_work(detail, first) or _taken_at_an_angle(detail, first.kept)


def _small_at_work(detail: np.ndarray, first: Look) -> bool:
    """Whether the first look's tiles are small at the working size (narrower than
    SMALL_TILE; or than 1.4 times that when a quarter of them are doubtful), or it found
    none that tell, on a photo big enough to show them larger. Not on a busy background
    (leather, a floral tray) where the first look found a tile: there more would mostly
    be texture. Where it found none, a photo read as no tile is no use."""
    kept = first.kept
    widths = [c.box.width for c in _measuring(kept)]
    small = (not widths) or float(np.median(widths)) < SMALL_TILE or (
        _doubtful(kept) and float(np.median(widths)) < 1.4 * SMALL_TILE)
    return small and (not first.busy or not kept) and max(detail.shape[:2]) >= 1.5 * WORK_LONG_SIDE


def _taken_at_an_angle(detail: np.ndarray, kept: list[Candidate]) -> bool:
    """Whether the tiles found show that the photo was taken at an angle (see
    perspective.py): the tilt is measured on the sizes of the tiles read cleanly, or
    guessed from their shapes when there are too few of them and one is doubtful (none
    clean: a usual tilt is supposed). Not when no tile was found, nor when every tile
    reads surely (confidence 0.9 and up), nor when the few tiles found read cleanly and
    none doubtfully: on the development sets the view from above these took before found
    no more tiles then."""
    if _all_sure(kept) or not kept:
        return False
    h, w = detail.shape[:2]
    good = [c for c in kept if c.score >= CLEAN]
    if len(good) >= perspective.MIN_TILES:
        return perspective.fit_turn(*_measures(good), w, h) is not None
    if not good:
        return True
    if not any(_confidence(c) < LOW_CONFIDENCE for c in kept):
        return False
    return perspective.tilt_from_shapes([c.corners_detail for c in good]) >= perspective.MIN_TILT


def _work_size(shape: tuple) -> tuple[int, int]:
    """The width and height of the working image of an image of `shape` (WORK_LONG_SIDE long)."""
    h, w = shape[:2]
    f = WORK_LONG_SIDE / max(h, w)
    return max(1, round(w * f)), max(1, round(h * f))


#: A tile read with this confidence or more, and two pips or more, tells how big the
#: set's tiles are (_measuring). Below the mark for checking (0.8): a real [6|6] with a
#: faint divider is read at 0.68; boxes of cloth or table at 0.5 or less (the flowers of
#: a cloth as [4|4]s at 0.50, cloth as an [8|7] at 0.48). 0.6 lost a tile or two of others.
MEASURES = 0.55


def _measuring(kept: list[Candidate]) -> list[Candidate]:
    """The tiles of `kept` that tell how big the set's tiles are on the photo: those read
    with a confidence of MEASURES or more and two pips or more. A box of plain table read
    as a [0|0], or a doubtful box over several small tiles, is far bigger than the tiles:
    measured by it, small tiles were not seen small (a stack of nine tiles 15 working
    pixels wide under a table's [0|0] 200 wide: none read; all nine once seen small)."""
    return [c for c in kept if c.reading.pips > 1 and _confidence(c) >= MEASURES]


def _detail_width(c: Candidate) -> float:
    """The width of the tile read in `c` on the decoded photo."""
    return float(np.linalg.norm(c.corners_detail[0] - c.corners_detail[1]))


def _classical_end(detail: np.ndarray, first: Look, faint_looked: bool, effort: Effort) -> Look:
    """The `first` look at `detail` put together with the look for faint dividers, when
    the tiles found have faint ones (_faint) on a quiet photo not looked at so already
    (`faint_looked`), its work counted in `effort`. Some sets' dividers are a fine engraved
    line, barely darker than the face: at the working size it is a pixel wide and stands
    out by less than the marks threshold. Looked for even when every tile found reads
    surely: a photo of such a set may show only some of its dividers. It is at the first
    look's size, so what was made there (its Working) is passed on."""
    if not _faint(first.kept) or first.busy or faint_looked:
        return first
    return _with_faint_look(detail, first, effort)


def _with_faint_look(detail: np.ndarray, first: Look, effort: Effort) -> Look:
    """The `first` look at `detail` put together with the look for faint dividers at its
    size (its Working: the same image, edge field, contrast maps and bodies), the work
    counted in `effort`: the tiles of both (_merged: where the first found none, the
    faint look's), and the proposals of both."""
    faint = _analyse(detail, threshold=FAINT_THRESHOLD, working=first.working, effort=effort)
    return Look(_merged(first.kept, faint.kept), first.busy, first.working, first.proposals + faint.proposals)


def _merged(kept: list[Candidate], found: list[Candidate]) -> list[Candidate]:
    """The tiles of the look whose tiles rank higher in all, and those of the other look
    read clearly (not marked for checking) where the first has none: a second look at
    another threshold finds the tiles the first one missed, and may lose a few of those
    it found. Its doubtful tiles are left out: where the first look found nothing, they
    are more often texture read as a tile."""
    base, other = (found, kept) if _outranks(found, kept) else (kept, found)
    out = list(base)
    for c in sorted(other, key=lambda c: -_rank(c)):
        if _confidence(c) >= LOW_CONFIDENCE and all(_overlap_on_photo(c, k) < OVERLAPPING for k in out):
            out.append(c)
    return out


def _overlap_on_photo(a: Candidate, b: Candidate) -> float:
    """Intersection area / smaller area of two tiles' outlines on the photo."""
    return corners_overlap(a.corners_detail, b.corners_detail)


def _all_sure(kept: list[Candidate]) -> bool:
    """Whether tiles were found and every one of them reads surely (confidence SURE)."""
    return bool(kept) and all(_confidence(c) >= SURE for c in kept)


def _outranks(found: list[Candidate], kept: list[Candidate]) -> bool:
    """Whether another look's tiles rank higher in all than those kept so far."""
    return sum(_rank(c) for c in found) > sum(_rank(c) for c in kept)


#: The marks threshold of the look for faint dividers (see _classical_end; the first
#: look's is dividers.MARK_THRESHOLD). Used on every photo, it found more tiles on
#: rendered photos of such sets but lost as many on turned copies of the real ones:
#: fainter marks are also wood grain, shadows and pip halos.
FAINT_THRESHOLD = 30
#: That look is taken when the tiles found differ from the face along their divider by
#: less than this (colour units, the median over the tiles): the real development sets'
#: dividers stand out by 55 to 95, the faint engraved ones of rendered sets by 25 to 50.
FAINT_DIVIDER = 55.0


def _faint(kept: list[Candidate]) -> bool:
    """Whether the tiles found have faint dividers (or there are none): a sign that the
    set's dividers are fine engraved lines, some of them missed by the first look."""
    return not kept or float(np.median([c.reading.divider_contrast for c in kept])) < FAINT_DIVIDER


def _doubtful(kept: list[Candidate]) -> bool:
    """No tile found, or a quarter or more of those found are doubtful."""
    return not kept or sum(_confidence(c) < LOW_CONFIDENCE for c in kept) >= max(1, 0.25 * len(kept))


def _measures(cands: list[Candidate]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tiles' centres, areas and vectors across the divider, on the photo."""
    corners = np.array([c.corners_detail for c in cands]).reshape(-1, 4, 2)
    areas = np.array([cv2.contourArea(q.astype(np.float32)) for q in corners])
    return corners.mean(axis=1), areas, corners[:, 0] - corners[:, 1]


def _analyse(detail: np.ndarray, threshold: int = MARK_THRESHOLD, working: Working | None = None, *,
             effort: Effort, until_small: bool = False) -> Look:
    """The look at `detail` at the working size (`working`: the Working an earlier look at
    `detail` made, or a new one, which the Look returned carries): the tiles found,
    whether the background was busy (more marks or divider candidates than are
    examined), and the outlines on `detail` of the boxes read. Its work is counted in
    `effort` (the work done reading the photo). With `until_small` it stops as soon as
    SMALL_SEEN of the tiles read tell that they are small (_small): such a photo is
    read by the quick look (reader._read_tiles), which has no use for the rest of this
    look. Those tiles are the look's only ones then (`cut_short`). The two most
    promising tiles read fairly surely tell nearly always what all of them do: of 720
    harsh photos (18 seeds from 5 to 34), 213 are quiet JPEGs decoded at a reduced size;
    on 50 of them the first look stopped so, and the whole look would have found one of
    those 50 not small (that photo reads alike either way). Small tiles are found by
    their bodies, so those boxes are read first, before any divider is looked for."""
    working = Working(detail) if working is None else working
    work, f = working.image, working.f
    hw, hh = work.shape[1], work.shape[0]
    readings: dict[int, tuple[TileBox, Candidate | None]] = {}  # id(box): the box and its reading, made once
    if until_small:
        # small tiles are found by their bodies (their dividers are a pixel or two wide
        # here): when the bodies' tiles tell that they are small, the look stops before
        # it has searched for dividers at all
        _, read, _, telling = _read_boxes(detail, working.bodies[0], f, readings, until_sized=True)
        if telling is not None:
            effort.look(hw * hh, None, len(read))
            return Look(telling, False, working, [b.corners() / f for b in read], cut_short=True)
    field = working.field
    bars, capped = find_bars(work, threshold=threshold, maps=working.maps)
    marked = len(bars)
    busy = capped or sum(not b.half for b in bars) > 2 * MAX_BARS
    if len(bars) > 2 * MAX_BARS:
        bars = _most_divider_like(bars, field, 2 * MAX_BARS)
    measure_flatness(bars, field)
    bars = [b for b in join_split_bars(dedupe_bars(bars)) if b.joined or not b.half]
    if len(bars) > MAX_BARS:
        bars = _most_divider_like(bars, field, MAX_BARS)
    seen: list[TileBox] = []
    boxes = []
    unfitted: list = []  # bars with no tile edges found beside them
    for bar in bars:
        box = fit_tile(bar, field)
        if box is None:
            unfitted.append(bar)
            continue
        if not _mostly_inside(box, hw, hh):
            continue
        if any(_same_box(box, o) for o in seen):
            continue  # the same bar found twice (two pyramid levels, two contrast maps)
        seen.append(box)
        boxes.append(box)
    # and the tiles that stand out from the table by their bodies: their dividers may
    # be too faint or blurred to be found
    bodies, blocks = working.bodies
    boxes += [b for b in bodies if not any(_same_box(b, o) for o in seen)]
    cands, read, rejected, telling = _read_boxes(detail, boxes, f, readings, until_small=until_small)
    read_first = len(readings) - len(read)  # bodies' boxes read first, and not again since
    if telling is not None:
        effort.look(hw * hh, marked, len(readings))
        return Look(telling, busy, working, [b.corners() / f for b in read], cut_short=True)
    # One set per photo: the divider spans the same fraction of the width on every tile.
    # Tiles whose measured width disagrees with that are re-read at the consensus width.
    good = [c for c in cands if c.score >= CLEAN and not c.box.body]  # bodies' bars are supposed
    if len(good) >= 2:
        rho = float(np.median([c.box.bar.length / c.box.width for c in good]))
        if len(good) >= 3:
            cands = [_at_consensus(detail, c, rho, f) for c in cands]
        lengths = SizeModel([(c.box.bar.cx, c.box.bar.cy, c.box.bar.length) for c in good])
        again = _second_looks(rejected, unfitted, lengths, field)
        cands = cands + _retry_at_width(detail, again, cands, rho, f, (hw, hh), read)
    good = [c for c in cands if c.score >= CLEAN]  # with the second looks' tiles
    if blocks or (good and bodies):
        cands = cands + _split_blocks(detail, blocks, bodies, cands, good, f, read)
        good = [c for c in cands if c.score >= CLEAN]
    if len(good) >= 3:
        # and tiles are about the size of their neighbours (the table's perspective allowing)
        widths = SizeModel([(c.box.cx, c.box.cy, c.box.width) for c in good])
        cands = [c for c in cands if 0.6 <= c.box.width / widths.at(c.box.cx, c.box.cy) <= 1.6]
    cands = [c for c in cands
             if _rank(c) >= MIN_SCORE and not _doubtful_blank(c, cands, detail, f) and not _doubtful_body(c)]
    cands.sort(key=lambda c: -_rank(c))
    # A clean box that contains a smaller one wins over it unless clearly worse: boxes
    # built on a pip's edge or on a tile's border sit inside real tiles.
    for c in cands:
        c.score_rank = _rank(c)
    for c in cands:
        for o in cands:
            if o is c or o.box.polygon_area() >= 0.7 * c.box.polygon_area():
                continue
            if c.score_rank >= 0.8 * o.score_rank and overlap(c.box, o.box) > 0.6:
                o.score_rank = min(o.score_rank, 0.99 * c.score_rank)
    cands.sort(key=lambda c: -c.score_rank)
    kept: list[Candidate] = []
    for c in cands:
        if all(overlap(c.box, k.box) < OVERLAPPING for k in kept):
            kept.append(c)
    # and every way the blocks where no tile was kept may be split into tiles (chains end
    # to end, two side by side), for the tile network alone to judge. A blank kept over a
    # block but much larger than it does not account for it: a box of wood grain about
    # a chain of black tiles, read as a 0 | 0, hid the whole chain.
    splits = [b for block in blocks if all(overlap(block, k.box) < OVERLAPPING or _blank_about(k, block) for k in kept)
              for b in every_split(block)]
    proposals = read + splits[:MAX_SPLITS]
    effort.look(hw * hh, marked, len(proposals) + read_first)
    return Look(kept, busy, working, [b.corners() / f for b in proposals])


def _read_boxes(detail: np.ndarray, boxes: list[TileBox], f: float,
                readings: dict[int, tuple[TileBox, Candidate | None]], *, until_small: bool = False,
                until_sized: bool = False
                ) -> tuple[list[Candidate], list[TileBox], list[TileBox], list[Candidate] | None]:
    """The tiles read in `boxes` (on the working image, `f` times `detail`), the most
    promising first, each box read once over calls (`readings`); the boxes read; those
    read as no tile (bodies' boxes aside); and, with `until_small`, the tiles that tell
    that the set's tiles are small (_small) as soon as SMALL_SEEN of them do, when
    reading stops. With `until_sized` it stops as soon as SMALL_SEEN tiles tell the
    set's size, small or not. A box overlapping a tile already read surely is not read when
    that tile's box was more promising (a row of pips, or half of that tile and half of
    its neighbour, makes such boxes), nor when it is much wider than that tile (tiles
    of a set are one size, so it spans that tile and a neighbour): it would lose to
    that tile at the end."""
    cands: list[Candidate] = []
    read: list[TileBox] = []
    rejected: list[TileBox] = []
    for box in sorted(boxes, key=lambda b: -_prerank(b))[:MAX_READS]:
        pr = _prerank(box)
        if any(c.score >= SURE and overlap(box, c.box) > OVERLAPPING
               and (box.width / c.box.width >= 1.15 or _prerank(c.box) >= pr) for c in cands):
            continue
        if _inside_a_tile_read(box, cands):
            continue
        c = None
        if not _unlike_set(box, cands, detail, f):
            read.append(box)
            if readings.get(id(box), (None,))[0] is not box:
                readings[id(box)] = (box, _candidate(detail, box, f))
            c = readings[id(box)][1]
        if c is not None:
            cands.append(c)
            if (until_small or until_sized) and len(telling := _measuring(cands)) >= SMALL_SEEN:
                if _small(telling):
                    return cands, read, rejected, telling
                if until_sized:
                    break
        elif not box.body:
            rejected.append(box)
    return cands, read, rejected, None


#: A blank kept over a block with more than this many times its area does not stand for it.
COVERS = 2.0


#: A box at most this share of a tile's width, lying this much inside it (a share of its
#: own area), is part of that tile (below a half: a box over four tiles, two by two, read
#: cleanly would otherwise hide each of them)...
PART_WIDTH = 0.4
PART_INSIDE = 0.9


def _inside_a_tile_read(box: TileBox, cands: list[Candidate]) -> bool:
    """Whether `box` is part of a tile read cleanly with two pips or more: a row of its
    pips, an edge of its face. On a close-up of one tile enlarged to 12 MP, read at 0.89
    (short of SURE), those were 17 of the 22 boxes read, about a millisecond each, and
    none was a tile. Such a box is not read, nor proposed to the tile network, nor looked
    at again at the set's width. A tile read with no pip or one is left out: a box of
    plain table read as a [0|0] may be much larger than the tiles on it."""
    return any(c.score >= CLEAN and c.reading.pips > 1 and box.width <= PART_WIDTH * c.box.width
               and overlap(box, c.box) > PART_INSIDE for c in cands)


def _blank_about(c: Candidate, block: TileBox) -> bool:
    """Whether `c` is a blank tile much larger than `block`: the block is then not a part of it."""
    return c.reading.pips == 0 and c.box.polygon_area() > COVERS * block.polygon_area()


#: Sure tiles, when there are this many, set the size of the tiles still to be found: a box
#: narrower than SMALLER times the narrowest of them, or wider than LARGER times the
#: widest, is not read.
SURE_TILES = 2
SMALLER, LARGER = 0.6, 1.6
#: ...and a box less than face_marks.FACE_SHARE of which has one of their faces' hues
#: (face_marks.hue_share) is not read either. On the development sets this skips 13 % of
#: all readings (46 of the 54 of pink tiles on wood grain), and no tile.


def _unlike_set(box: TileBox, cands: list[Candidate], detail: np.ndarray, f: float) -> bool:
    """Whether `box` is too far from the size of the tiles already read surely to be one
    of the same set, or too little of it has their faces' colour. A busy background
    (creased leather, wood grain) makes a hundred boxes, most of them the size of its
    texture, not of the tiles, and all of them its colour; each costs a reading."""
    sure = [c for c in cands if c.score >= SURE]
    if len(sure) < SURE_TILES:
        return False
    widths = [c.box.width for c in sure]
    if not SMALLER * min(widths) <= box.width <= LARGER * max(widths):
        return True
    return _face_share(box, sure, detail, f) < face_marks.FACE_SHARE


def _face_share(box: TileBox, sure: list[Candidate], detail: np.ndarray, f: float) -> float:
    """The share of `box` with the hue of one of the `sure` tiles' faces."""
    return face_marks.hue_share(_colour_sample(detail, box, f), np.array([_face(c, detail, f) for c in sure]))


def _colour_sample(detail: np.ndarray, box: TileBox, f: float) -> np.ndarray:
    """The a, b colour of 6 x 12 points spread over the inside of `box`."""
    small = warp_tile(detail, box.corners() / f, out_h=16, out_w=8)
    return lab_image(small)[2:-2, 1:-1, 1:].reshape(-1, 2)


def _face(c: Candidate, detail: np.ndarray, f: float) -> np.ndarray:
    """The colour (a, b) of the face of the tile read in `c`: its box's median."""
    if c.face is None:
        c.face = np.median(_colour_sample(detail, c.box, f), axis=0)
    return c.face


def _at_consensus(detail: np.ndarray, c: Candidate, rho: float, f: float) -> Candidate:
    """The tile read again at the width its divider gives with the set's ratio `rho`,
    when its measured width disagrees, and that reading is better (the measured width is
    trusted when its edges were clear). Better is by rank, which counts the box's shape:
    two clean readings, one of a box cut to 2:1 and one of a box a tenth too wide that
    takes in a neighbour's pip, differ there only. A doubtful reading of a box that sits
    off its divider's centre is read again centred, even at the same width: a tile partly
    under another has one side hidden, and the edge search slides the box over."""
    if c.box.body:
        return c  # its bar is supposed: the set's ratio says nothing of its width
    again = _at_width(c.box, rho)
    b = c.box.bar
    off_centre = np.hypot(c.box.cx - b.cx, c.box.cy - b.cy) > 0.05 * c.box.width
    if abs(c.box.width / again.width - 1.0) <= 0.1 and not (off_centre and c.score < CLEAN):
        return c
    c2 = _candidate(detail, again, f)
    better = c2 is not None and (_rank(c2) > _rank(c) + 0.02 or (c2.score >= 0.8 * c.score and c.box.edge < 4.0))
    return c2 if better else c


class SizeModel:
    """The size a tile (or its divider) is expected to have at each point of the photo.
    The tiles lie on the table's plane, and seen in perspective a thing's size there is
    inversely proportional to its depth, whose inverse is linear in the image
    coordinates: so the size is fitted as a plane over the photo on the tiles read
    cleanly (with a camera tilted by 35 degrees, the near tiles are twice the size of the
    far ones). With fewer than four tiles, or a fit that does not hold, the median size."""

    def __init__(self, samples: list[tuple[float, float, float]]) -> None:
        xs, ys, sizes = (np.array(v, np.float64) for v in zip(*samples))
        self.median = float(np.median(sizes))
        self.plane = None
        if len(sizes) >= 4:
            A = np.column_stack([np.ones_like(xs), xs, ys])
            keep = np.ones(len(sizes), bool)
            for _ in range(2):  # once more without the tiles the first fit misses by far
                plane = np.linalg.lstsq(A[keep], sizes[keep], rcond=None)[0]
                fitted = A @ plane
                if (fitted <= 0).any():
                    return
                keep = np.abs(sizes / fitted - 1.0) < 0.25
                if keep.sum() < 4:
                    return
            self.plane = plane

    def at(self, x: float, y: float) -> float:
        if self.plane is None:
            return self.median
        size = self.plane[0] + self.plane[1] * x + self.plane[2] * y
        return size if size > 0 else self.median


def _second_looks(rejected: list[TileBox], unfitted: list, lengths: SizeModel, field: EdgeField) -> list[TileBox]:
    """Boxes worth reading again at the set's width, the most divider-like first: those
    that read as no tile, and bars whose tile sides were not found if they look like a
    divider of this set (as long as the others, ending inside a face at least at one end:
    a pip may sit at the other)."""
    alike = [b for b in unfitted if 0.8 <= b.length / lengths.at(b.cx, b.cy) <= 1.25]
    alike = [TileBox(b.cx, b.cy, b.ux, b.uy, 0.0, 0.0, b) for b in alike if ends_inside_face(b, field) >= 0.5]
    return sorted(rejected + alike, key=lambda b: -np.nan_to_num(b.bar.flatness))


def _at_width(box: TileBox, rho: float) -> TileBox:
    """The box centred on its divider, as wide as the divider length / `rho` gives."""
    b = box.bar
    want = b.length / rho
    return replace(box, cx=b.cx, cy=b.cy, width=want, length=2 * want)


def _retry_at_width(detail: np.ndarray, boxes: list[TileBox], cands: list[Candidate], rho: float, f: float,
                    work_size: tuple[int, int], read: list[TileBox]) -> list[Candidate]:
    """The tiles found when `boxes` are read again at the width the other tiles' dividers
    give theirs: a shadow or a touching tile beside a long side often misleads the edge
    search (a shadow under a blank tile made it a third too wide). A box already that
    wide is read a little narrower: in a packed block of tiles, one a little farther from
    the camera than the others takes in its neighbours' pips at their width. The boxes
    read are added to `read`."""
    out: list[Candidate] = []
    inside = [(box, again) for box in boxes for again in [_at_width(box, rho)] if _mostly_inside(again, *work_size)]
    for box, again in inside[:MAX_RETRIES]:
        if abs(box.width / again.width - 1.0) <= 0.1:
            again = _at_width(box, rho / NARROWER)  # it was read at that width already
        if (any(c.score >= CLEAN and overlap(again, c.box) > OVERLAPPING for c in cands + out)
                or _unlike_set(again, cands + out, detail, f)):
            continue
        read.append(again)
        c = _candidate(detail, again, f)
        if c is not None:
            out.append(c)
    return out


def _split_blocks(detail: np.ndarray, blocks: list[TileBox], bodies: list[TileBox], cands: list[Candidate],
                  good: list[Candidate], f: float, read: list[TileBox]) -> list[Candidate]:
    """The tiles read in blocks of tiles touching side by side, split at the width the
    tiles read cleanly have there (see bodies.split_block), or at half their depth when
    none was, where no tile was read yet. Once that width is known, tile-like `bodies`
    are looked at as blocks too: four or five tiles side by side make a 2:1 or 5:2 blob.
    The boxes read are added to `read`."""
    widths = SizeModel([(c.box.cx, c.box.cy, c.box.width) for c in good]) if good else None
    split = []
    if widths is not None:
        split += [box for body in bodies for box in split_block(body, widths.at(body.cx, body.cy))]
    for block in blocks:
        if widths is None:
            split += split_block(block)
            continue
        width = widths.at(block.cx, block.cy)
        # the tilt may make the tiles of a far row narrower than the model says
        split += split_block(block, width) or [b for b in split_block(block) if SMALLER <= b.width / width <= LARGER]
    out: list[Candidate] = []
    for box in split[:MAX_RETRIES]:
        if any(c.score >= CLEAN and overlap(box, c.box) > OVERLAPPING for c in cands + out):
            continue
        read.append(box)
        c = _candidate(detail, box, f)
        if c is not None:
            out.append(c)
    return out


#: The confidence of a tile read twice is this share of its own (a sure one's was 0.7
#: before, just not marked for checking).
TWICE = 0.6


def read_photo(photo: Photo, started: float | None = None, data: bytes | None = None) -> Hand:
    started = time.perf_counter() if started is None else started
    found, detail, photo = _read_tiles(photo, data)
    tiles: list[Tile] = []
    for f in found:
        poly = f.corners * photo.scale
        tiles.append(Tile(*f.tile, tuple((float(x), float(y)) for x, y in poly), round(f.confidence, 3)))
    # a set holds each tile once: the same tile read twice means one reading is wrong,
    # and each is marked for checking (the surer keeping the higher confidence)
    seen = Counter((t.a, t.b) for t in tiles)
    tiles = [t if seen[(t.a, t.b)] == 1 else Tile(t.a, t.b, t.polygon, round(TWICE * t.confidence, 3))
             for t in tiles]
    row = max(1.0, _row_height(tiles))
    tiles.sort(key=lambda t: (round(np.mean([p[1] for p in t.polygon]) / row), np.mean([p[0] for p in t.polygon])))
    scale = photo.scale  # the hand keeps the pixels it shows, not the photo's other decoding
    hand = Hand(tiles=tiles, width=photo.width, height=photo.height,
                _render=lambda hd, side: annotate.render(detail, scale, hd, side))
    hand.seconds = time.perf_counter() - started
    return hand


def _read_tiles(photo: Photo, data: bytes | None) -> tuple[list[Found], np.ndarray, Photo]:
    """The tiles read on `photo` (decoded from `data`), the photo in BGR they were read on
    and that photo. The quick look (finder_look) reads a busy photo, and one on any other
    table where its tiles leave no pips nor faces' colour outside them
    (QuickLook.leaves_nothing_unread; on a light table, see finder_look.table, as
    quick_look says). The classical looks read the others, and those the quick look
    reads no tile on; their tiles are put together with the network's reading of every
    box they read, and of the finder's boxes when the first look needs them
    (needs_finder). Where the first look finds small tiles (or none) on a JPEG decoded at
    a reduced size, the quick look's tiles are taken after all: it reads those as well as
    the classical looks, in about half their time."""
    detail = photo.bgr
    table = finder_look.table(photo)
    sight = finder_look.Sight(detail)  # what the finder sees, looked for once, where first needed
    effort = Effort()  # the quick look's work and the classical looks' after it, together
    quick = quick_look(photo, sight, data, effort, light=table.light)
    if quick.found and (table.busy or quick.leaves_nothing_unread()):
        return quick.found, quick.detail, quick.photo
    finder_seen = table.busy  # a busy photo: the quick look found nothing on the finder's boxes
    if table.busy or not sharper_decoding(photo, data):
        first, faint_looked = first_looks(detail, effort)
    else:
        # The quick look's tiles are taken if they are small (or none is seen): the first
        # look stops as soon as it sees them small, and the look for faint dividers waits
        # for the quick look to have found nothing.
        first = _analyse(detail, effort=effort, until_small=True)
        finder_seen = small_tiles(photo, data, first.kept)
        if finder_seen and quick.found:
            return quick.found, quick.detail, quick.photo
        if first.cut_short:  # made whole again for the classical looks (the same Working)
            first = _analyse(detail, working=first.working, effort=effort)
        first, faint_looked = first_looks(detail, effort, first)
    # its photo may be a sharper decoding (9 MB for a 3 MP JPEG; a bigger JPEG's photo
    # keeps that decoding anyway, Photo.twice)
    del quick
    if not finder_seen and needs_finder(detail, first):
        look, boxes = first, sight.boxes_of_tiles([_detail_width(c) for c in _measuring(first.kept)])
    else:
        look, boxes = _classical_end(detail, first, faint_looked, effort), []
    classical = [Found(c.corners_detail, c.reading.top.count, c.reading.bottom.count, _confidence(c)) for c in look.kept]
    proposals = look.proposals + boxes
    del first, look  # their Working (an edge field and contrast maps, 11 MB) is of no use to the network
    return network_look.put_together(detail, classical, proposals, effort), detail, photo


def _row_height(tiles: list[Tile]) -> float:
    if not tiles:
        return 1.0
    sizes = []
    for t in tiles:
        p = np.array(t.polygon)
        sizes.append(min(np.linalg.norm(p[0] - p[1]), np.linalg.norm(p[1] - p[2])))
    return float(np.median(sizes)) * 1.5


#: Whether ready() has run (taken by one thread at a time: a web server's threads may
#: take read_hand at once).
_readied = False
_readying = threading.Lock()


def ready() -> None:
    """Do once, before the first photo, what its reading would otherwise pay for (0.1 s):
    load the two networks and run each once, read a small blank photo, on which OpenCV
    builds its tables for the Lab colour space (40 ms on their first use) and Pillow
    loads its JPEG plugins, and take a median along an axis (numpy then imports its
    masked arrays, 6 ms). In a fresh process the first 12 MP photo took 0.22 s to read
    and the next ones 0.08 s; readied, it takes about as long as the next ones. A
    network that cannot be loaded (a damaged file) raises VisionUnavailable: the photo
    is not at fault, and the next call tries again."""
    global _readied
    with _readying:
        if _readied:
            return
        try:
            tile_net.session(tile_net.WEIGHTS)
            tile_net.session(tile_finder.WEIGHTS)
        except Exception as exc:
            raise VisionUnavailable(f"its networks could not be loaded: {exc}") from None
        tile_net.read_crops([np.zeros((tile_net.IN_H, tile_net.IN_W, 3), np.uint8)])
        tile_finder.answers(np.zeros((64, 64, 3), np.uint8))
        _, blank = cv2.imencode(".jpg", np.full((48, 64, 3), 128, np.uint8))
        read_hand_bytes(blank.tobytes())
        np.median(np.zeros((1, 2)), axis=1)
        _readied = True


def read_hand_bytes(data: bytes) -> Hand:
    started = time.perf_counter()
    photo = load_photo(data)
    try:
        return read_photo(photo, started, data)
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:  # never let an odd photo crash the caller
        raise PhotoError(f"the photo could not be analysed ({exc.__class__.__name__})") from exc
