"""What the tiles read cleanly agree on, held against the rest of a classical look's
boxes: the tiles of one photo are of one set, so of one size (the table's perspective
allowing), one ratio of divider length to width, and one faces' colour.

Once two tiles are read surely, a box far from their size, or with too little of their
faces' hue in it, is not read at all (unlike_set): a busy background makes a hundred
boxes the size of its texture. A box that read as no tile, a divider whose tile sides
were not found, and a tile whose measured width disagrees with the set's ratio are read
again at the width the clean tiles' dividers give (second_looks, retry_at_width,
at_consensus; SizeModel carries a size over a photo taken at an angle); blocks of tiles
touching side by side are split at that width (split_blocks). A tile of no pip or one,
and a tile found by its body with no divider to be seen, are kept only where they are
like the set's tiles or read fairly surely (doubtful_blank, doubtful_body). The tiles
that tell the set's size (measuring) tell whether its tiles are small on the decoded
photo (seen_small).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import box_reading, face_marks
from .bodies import split_block
from .box_reading import CLEAN, OVERLAPPING, SURE, Candidate, confidence, mostly_inside, rank
from .geometry import EdgeField, TileBox, ends_inside_face, overlap
from .loading import SHARPER_TILE
from .pips import MIN_DIVIDER_CONTRAST, lab_image, warp_tile

#: Sure tiles, when there are this many, set the size of the tiles still to be found: a box
#: narrower than SMALLER times the narrowest of them, or wider than LARGER times the
#: widest, is not read.
SURE_TILES = 2
SMALLER, LARGER = 0.6, 1.6
#: ...and a box less than face_marks.FACE_SHARE of which has one of their faces' hues
#: (face_marks.hue_share) is not read either. On the development sets this skips 13 % of
#: all readings (46 of the 54 of pink tiles on wood grain), and no tile.


def unlike_set(box: TileBox, cands: list[Candidate], detail: np.ndarray, f: float) -> bool:
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


#: At most this many rejected boxes are read again at the width the other tiles agree on.
MAX_RETRIES = 12
#: A rejected box already at that width is read again at this fraction of it.
NARROWER = 0.85

def at_consensus(detail: np.ndarray, c: Candidate, rho: float, f: float) -> Candidate:
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
    c2 = box_reading.read_candidate(detail, again, f)
    better = c2 is not None and (rank(c2) > rank(c) + 0.02 or (c2.score >= 0.8 * c.score and c.box.edge < 4.0))
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


def second_looks(rejected: list[TileBox], unfitted: list, lengths: SizeModel, field: EdgeField) -> list[TileBox]:
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


def retry_at_width(detail: np.ndarray, boxes: list[TileBox], cands: list[Candidate], rho: float, f: float,
                   work_size: tuple[int, int], read: list[TileBox]) -> list[Candidate]:
    """The tiles found when `boxes` are read again at the width the other tiles' dividers
    give theirs: a shadow or a touching tile beside a long side often misleads the edge
    search (a shadow under a blank tile made it a third too wide). A box already that
    wide is read a little narrower: in a packed block of tiles, one a little farther from
    the camera than the others takes in its neighbours' pips at their width. The boxes
    read are added to `read`."""
    out: list[Candidate] = []
    inside = [(box, again) for box in boxes for again in [_at_width(box, rho)] if mostly_inside(again, *work_size)]
    for box, again in inside[:MAX_RETRIES]:
        if abs(box.width / again.width - 1.0) <= 0.1:
            again = _at_width(box, rho / NARROWER)  # it was read at that width already
        if (any(c.score >= CLEAN and overlap(again, c.box) > OVERLAPPING for c in cands + out)
                or unlike_set(again, cands + out, detail, f)):
            continue
        read.append(again)
        c = box_reading.read_candidate(detail, again, f)
        if c is not None:
            out.append(c)
    return out


def split_blocks(detail: np.ndarray, blocks: list[TileBox], bodies: list[TileBox], cands: list[Candidate],
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
        c = box_reading.read_candidate(detail, box, f)
        if c is not None:
            out.append(c)
    return out


#: Lowest confidence at which a tile of at most one pip is reported.
BLANK_MIN_CONFIDENCE = 0.5
#: ...and the least contrast of its divider with the face (colour units).
BLANK_MIN_DIVIDER = 40.0


def doubtful_blank(c: "Candidate", cands: list["Candidate"], detail: np.ndarray, f: float) -> bool:
    """A tile with no pip or one has little to show it is a tile at all: a streak of wood
    grain in a patch of plain table reads as a 0-0. Such readings are kept only when the
    detection is fairly sure of them and the divider stands out as a divider does (a
    real one differs from the face by 60 or more colour units, a streak by 20 to 30), or
    when the tile is like those read surely: their size, and nearly all of it their
    faces' colour (a set's fine engraved dividers stand out by 20 to 40)."""
    if c.reading.pips > 1:
        return False
    if confidence(c) < BLANK_MIN_CONFIDENCE:
        return True
    return c.reading.divider_contrast < BLANK_MIN_DIVIDER and not _like_set(c, cands, detail, f)


#: A blank like the set's tiles (see doubtful_blank) has at least this share of its box
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
#: reported (the real photos' barcode label and notebook edge read 0.26-0.27; at 0.5
#: rendered photos' tiles with no divider to be seen are lost, at 0.3 more are invented).
BODY_MIN_CONFIDENCE = 0.4


def doubtful_body(c: "Candidate") -> bool:
    """A box found by its body whose divider cannot be seen at all is a tile only if it
    reads fairly surely: a label with a barcode, the edge of a notebook, are blobs about
    2:1 as well, with a few marks that read as pips."""
    return c.box.body and c.reading.divider_contrast < MIN_DIVIDER_CONTRAST and confidence(c) < BODY_MIN_CONFIDENCE


#: A tile read with this confidence or more, and two pips or more, tells how big the
#: set's tiles are (measuring). Below the mark for checking (0.8): a real [6|6] with a
#: faint divider is read at 0.68; boxes of cloth or table at 0.5 or less (the flowers of
#: a cloth as [4|4]s at 0.50, cloth as an [8|7] at 0.48). 0.6 lost a tile or two of others.
MEASURES = 0.55


def measuring(kept: list[Candidate]) -> list[Candidate]:
    """The tiles of `kept` that tell how big the set's tiles are on the photo: those read
    with a confidence of MEASURES or more and two pips or more. A box of plain table read
    as a [0|0], or a doubtful box over several small tiles, is far bigger than the tiles:
    measured by it, small tiles were not seen small (a stack of nine tiles 15 working
    pixels wide under a table's [0|0] 200 wide: none read; all nine once seen small)."""
    return [c for c in kept if c.reading.pips > 1 and confidence(c) >= MEASURES]


def detail_width(c: Candidate) -> float:
    """The width of the tile read in `c` on the decoded photo."""
    return float(np.linalg.norm(c.corners_detail[0] - c.corners_detail[1]))


def seen_small(telling: list[Candidate]) -> bool:
    """Whether tiles that tell the set's size (`measuring`, one or more) say it is
    narrower than SHARPER_TILE on the decoded photo."""
    return float(np.median([detail_width(c) for c in telling])) < SHARPER_TILE
